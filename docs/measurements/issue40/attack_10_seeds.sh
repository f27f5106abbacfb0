#!/bin/sh
# (A) attack 0.6 -> 0.7 on 10 seeds, paired (baseline and check on the same seed)
cd "$(dirname "$0")/../../.."  # the project folder; outputs go to /tmp/m0
mkdir -p /tmp/m0
for s in 3001 3002 3003 3004 3005 3006 3007 3008 3009 3010; do
  [ -f /tmp/m0/b$s.json ] || .venv/bin/sim baseline configs/clear_for_takeoff.toml --set seed=$s --out /tmp/m0/b$s.json --quiet --threads 1 > /dev/null 2>&1
  .venv/bin/python docs/measurements/issue40/looks_both_rules.py configs/clear_for_takeoff.toml /tmp/m0/b$s.json /tmp/m0/A.jsonl --set seed=$s --set 'seats[2].weights.attack=0.7'
done
echo doneA
