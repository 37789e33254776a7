# Moved to scripts/ab_plan_diff.py in session 66 (keyed by the whole type spec; for this folder's A/B, whose types
# differ in the activation, the numbers are the same and the types print as full specs).
import os, runpy, sys
runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../../../scripts/ab_plan_diff.py"), run_name="__main__")
