B=build-f16/tools/mixgemm-exchange-rate; for c in 64 32 1; do $B --clusters $c --launches 30; done 2>&1 | tee $OUT/exchange_rate.txt; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv >> $OUT/exchange_rate.txt
# (device call with carry: build-f16/tools/mixgemm-exchange-rate, built here from tools/ubench/exchange_rate.cu at commit.txt)
