"""The scheduler's pure core: plain values in (`now` included), plain values out.

Nothing here does I/O, reads the clock or imports the engine around it
(`scheduler/`: the tick, delivery, routing, the kinds and the channel adapters),
services or storage beyond `storage.records`; `tests/unit/test_layers.py` fails on
an import that would change that. What lives here:

- next-time rules and schedules: `schedule` (cron-like specs; APScheduler's trigger
  only as a calculator), `reminder_rules`, `water_rule`, `backup_schedule`,
  `times` (every named time and date format);
- state machines: `job_state`, `rule_state`, `water_plan`, `incidents` (which also
  composes the admins' alert text), `nag` (a nag's repeat slots and verdicts);
- per-kind policy: `rule_kinds` (one row of terms per rule kind), `quiet` (quiet
  time), `fallback` (where a reminder goes and its one fallback),
  `retention_policy` (which rows the daily run may delete), `liveness` (whether a
  scheduler ticks, from a heartbeat's age);
- composition: `messages`, `cards`, `digests`, `review` and `review_text`,
  `failure_words` (why a send failed, in the user's words);
- classification and the one retry policy: `outcomes` (what a send's result means
  for its job, and the backoff), over `channel`'s interface types (`SendResult`);
- text hygiene: `redact` (string masking; its one piece of state is the mask key set
  at start-up) and `user_ids` (finding known UserIDs; the engine fills the set).
"""
