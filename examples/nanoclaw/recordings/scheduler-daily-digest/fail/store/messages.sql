-- The rows of store/messages.db, written with the statements NanoClaw
-- itself runs (named before each). The tests build messages.db from
-- internal/source/nanoclaw/testdata/schema.sql followed by this file
-- (go test ./internal/source/nanoclaw -update).

-- setRegisteredGroup
INSERT OR REPLACE INTO registered_groups (jid, name, folder, trigger_pattern, added_at, container_config, requires_trigger, is_main)
     VALUES ('120363041234567890@g.us', 'Family', 'family', '@Andy', '2026-03-30T18:20:44.870Z', NULL, 1, 0);
-- storeChatMetadata
INSERT INTO chats (jid, name, last_message_time, channel, is_group) VALUES ('120363041234567890@g.us', 'Family', '2026-04-09T12:58:00.000Z', 'whatsapp', 1)
      ON CONFLICT(jid) DO UPDATE SET
        name = excluded.name,
        last_message_time = MAX(last_message_time, excluded.last_message_time),
        channel = COALESCE(excluded.channel, channel),
        is_group = COALESCE(excluded.is_group, is_group);
-- createTask
INSERT INTO scheduled_tasks (id, group_folder, chat_jid, prompt, script, schedule_type, schedule_value, context_mode, next_run, status, created_at)
    VALUES ('task-daily-digest', 'family', '120363041234567890@g.us', 'Send the family a short daily digest: the weather in Springfield today and anything in CLAUDE.md happening today or tomorrow. Keep it to a few bullets.', NULL, 'cron', '0 9 * * *', 'isolated', '2026-04-09T13:00:00.000Z', 'active', '2026-04-02T19:44:10.318Z');
-- logTaskRun
INSERT INTO task_run_logs (task_id, run_at, duration_ms, status, result, error)
    VALUES ('task-daily-digest', '2026-04-09T13:00:23.056Z', 22056, 'success', 'Digest sent to the family:
• Weather: partly sunny, high 64°F
• Tomorrow: Biscuit''s vet check-up at 10am', NULL);
-- updateTaskAfterRun
UPDATE scheduled_tasks
    SET next_run = '2026-04-10T13:00:00.000Z', last_run = '2026-04-09T13:00:23.056Z', last_result = 'Digest sent to the family:
• Weather: partly sunny, high 64°F
• Tomorrow: Biscuit''s vet check-up at 10am', status = CASE WHEN '2026-04-10T13:00:00.000Z' IS NULL THEN 'completed' ELSE status END
    WHERE id = 'task-daily-digest';
