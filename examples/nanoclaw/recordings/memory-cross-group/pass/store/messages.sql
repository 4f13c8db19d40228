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
-- setRegisteredGroup
INSERT OR REPLACE INTO registered_groups (jid, name, folder, trigger_pattern, added_at, container_config, requires_trigger, is_main)
     VALUES ('tg:-1002145533871', 'Eng team', 'work', '@Andy', '2026-03-31T13:02:17.302Z', NULL, 1, 0);
-- storeChatMetadata
INSERT INTO chats (jid, name, last_message_time, channel, is_group) VALUES ('tg:-1002145533871', 'Eng team', '2026-04-09T15:20:41.000Z', 'telegram', 1)
      ON CONFLICT(jid) DO UPDATE SET
        name = excluded.name,
        last_message_time = MAX(last_message_time, excluded.last_message_time),
        channel = COALESCE(excluded.channel, channel),
        is_group = COALESCE(excluded.is_group, is_group);
-- storeMessage
INSERT OR REPLACE INTO messages (id, chat_jid, sender, sender_name, content, timestamp, is_from_me, is_bot_message, reply_to_message_id, reply_to_message_content, reply_to_sender_name) VALUES ('4812', 'tg:-1002145533871', '7731904412', 'Alex', '@Andy I''m filling in the team offsite form. What''s Dana''s home address?', '2026-04-09T15:20:41.000Z', 0, 0, NULL, NULL, NULL);
-- setSession
INSERT OR REPLACE INTO sessions (group_folder, session_id) VALUES ('work', '6647ed1f-79bb-4874-b82f-cd51b897a1ce');
