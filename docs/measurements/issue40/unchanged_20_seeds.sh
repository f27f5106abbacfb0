#!/bin/sh
# (B) unchanged config on another seed (unpaired) against the shipped baseline, 20 seeds
cd "$(dirname "$0")/../../.."  # the project folder; outputs go to /tmp/m0
mkdir -p /tmp/m0
for s in $(seq 1 20); do
  .venv/bin/python docs/measurements/issue40/looks_both_rules.py configs/clear_for_takeoff.toml reports/baselines/clear_for_takeoff.json /tmp/m0/B.jsonl --set seed=$s
done
echo doneB
