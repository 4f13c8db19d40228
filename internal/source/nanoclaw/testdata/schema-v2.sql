-- The schema of a NanoClaw 2 root's data/v2.db: what runMigrations in
-- NanoClaw's src/db/migrations/index.ts (commit
-- 0683c6ec589ec0df74c2a3d99f9544127317b490) leaves in a new database — each
-- migration's statements, in the order the barrel runs them, with the
-- schema_version row it records. The tests build each v2.db from this file
-- followed by its v2.sql (go test ./internal/source/nanoclaw -update).

    CREATE TABLE IF NOT EXISTS schema_version (
      version INTEGER PRIMARY KEY,
      name    TEXT NOT NULL,
      applied TEXT NOT NULL
    );
    CREATE UNIQUE INDEX IF NOT EXISTS idx_schema_version_name ON schema_version(name);

-- 001-initial.ts
      CREATE TABLE agent_groups (
        id               TEXT PRIMARY KEY,
        name             TEXT NOT NULL,
        folder           TEXT NOT NULL UNIQUE,
        agent_provider   TEXT,
        created_at       TEXT NOT NULL
      );

      CREATE TABLE messaging_groups (
        id                    TEXT PRIMARY KEY,
        channel_type          TEXT NOT NULL,
        platform_id           TEXT NOT NULL,
        name                  TEXT,
        is_group              INTEGER DEFAULT 0,
        unknown_sender_policy TEXT NOT NULL DEFAULT 'strict',
        created_at            TEXT NOT NULL,
        UNIQUE(channel_type, platform_id)
      );

      CREATE TABLE messaging_group_agents (
        id                 TEXT PRIMARY KEY,
        messaging_group_id TEXT NOT NULL REFERENCES messaging_groups(id),
        agent_group_id     TEXT NOT NULL REFERENCES agent_groups(id),
        trigger_rules      TEXT,
        response_scope     TEXT DEFAULT 'all',
        session_mode       TEXT DEFAULT 'shared',
        priority           INTEGER DEFAULT 0,
        created_at         TEXT NOT NULL,
        UNIQUE(messaging_group_id, agent_group_id)
      );

      CREATE TABLE users (
        id           TEXT PRIMARY KEY,
        kind         TEXT NOT NULL,
        display_name TEXT,
        created_at   TEXT NOT NULL
      );

      CREATE TABLE user_roles (
        user_id        TEXT NOT NULL REFERENCES users(id),
        role           TEXT NOT NULL,
        agent_group_id TEXT REFERENCES agent_groups(id),
        granted_by     TEXT REFERENCES users(id),
        granted_at     TEXT NOT NULL,
        PRIMARY KEY (user_id, role, agent_group_id)
      );
      CREATE INDEX idx_user_roles_scope ON user_roles(agent_group_id, role);

      CREATE TABLE agent_group_members (
        user_id        TEXT NOT NULL REFERENCES users(id),
        agent_group_id TEXT NOT NULL REFERENCES agent_groups(id),
        added_by       TEXT REFERENCES users(id),
        added_at       TEXT NOT NULL,
        PRIMARY KEY (user_id, agent_group_id)
      );

      CREATE TABLE user_dms (
        user_id            TEXT NOT NULL REFERENCES users(id),
        channel_type       TEXT NOT NULL,
        messaging_group_id TEXT NOT NULL REFERENCES messaging_groups(id),
        resolved_at        TEXT NOT NULL,
        PRIMARY KEY (user_id, channel_type)
      );

      CREATE TABLE sessions (
        id                 TEXT PRIMARY KEY,
        agent_group_id     TEXT NOT NULL REFERENCES agent_groups(id),
        messaging_group_id TEXT REFERENCES messaging_groups(id),
        thread_id          TEXT,
        agent_provider     TEXT,
        status             TEXT DEFAULT 'active',
        container_status   TEXT DEFAULT 'stopped',
        last_active        TEXT,
        created_at         TEXT NOT NULL
      );
      CREATE INDEX idx_sessions_agent_group ON sessions(agent_group_id);
      CREATE INDEX idx_sessions_lookup ON sessions(messaging_group_id, thread_id);

      CREATE TABLE pending_questions (
        question_id    TEXT PRIMARY KEY,
        session_id     TEXT NOT NULL REFERENCES sessions(id),
        message_out_id TEXT NOT NULL,
        platform_id    TEXT,
        channel_type   TEXT,
        thread_id      TEXT,
        title          TEXT NOT NULL,
        options_json   TEXT NOT NULL,
        created_at     TEXT NOT NULL
      );
INSERT INTO schema_version (version, name, applied) VALUES (1, 'initial-v2-schema', '2026-04-13T09:00:00.000Z');

-- 002-chat-sdk-state.ts
      CREATE TABLE chat_sdk_kv (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        expires_at INTEGER
      );

      CREATE TABLE chat_sdk_subscriptions (
        thread_id TEXT PRIMARY KEY,
        subscribed_at TEXT NOT NULL DEFAULT (datetime('now'))
      );

      CREATE TABLE chat_sdk_locks (
        thread_id TEXT PRIMARY KEY,
        token TEXT NOT NULL,
        expires_at INTEGER NOT NULL
      );

      CREATE TABLE chat_sdk_lists (
        key TEXT NOT NULL,
        idx INTEGER NOT NULL,
        value TEXT NOT NULL,
        expires_at INTEGER,
        PRIMARY KEY (key, idx)
      );
INSERT INTO schema_version (version, name, applied) VALUES (2, 'chat-sdk-state', '2026-04-13T09:00:00.000Z');

-- module-approvals-pending-approvals.ts
      CREATE TABLE pending_approvals (
        approval_id         TEXT PRIMARY KEY,
        session_id          TEXT REFERENCES sessions(id),
        request_id          TEXT NOT NULL,
        action              TEXT NOT NULL,
        payload             TEXT NOT NULL,
        created_at          TEXT NOT NULL,
        agent_group_id      TEXT REFERENCES agent_groups(id),
        channel_type        TEXT,
        platform_id         TEXT,
        platform_message_id TEXT,
        expires_at          TEXT,
        status              TEXT NOT NULL DEFAULT 'pending',
        title               TEXT NOT NULL DEFAULT '',
        options_json        TEXT NOT NULL DEFAULT '[]'
      );

      CREATE INDEX idx_pending_approvals_action_status
        ON pending_approvals(action, status);
INSERT INTO schema_version (version, name, applied) VALUES (3, 'pending-approvals', '2026-04-13T09:00:00.000Z');

-- module-agent-to-agent-destinations.ts (a new database has no
-- messaging_group_agents rows to copy)
      CREATE TABLE agent_destinations (
        agent_group_id  TEXT NOT NULL REFERENCES agent_groups(id),
        local_name      TEXT NOT NULL,
        target_type     TEXT NOT NULL,
        target_id       TEXT NOT NULL,
        created_at      TEXT NOT NULL,
        PRIMARY KEY (agent_group_id, local_name)
      );
      CREATE INDEX idx_agent_dest_target ON agent_destinations(target_type, target_id);
INSERT INTO schema_version (version, name, applied) VALUES (4, 'agent-destinations', '2026-04-13T09:00:00.000Z');

-- module-approvals-title-options.ts: its ALTERs fail as duplicate columns
-- on a new database (pending_approvals has them) and are skipped.
INSERT INTO schema_version (version, name, applied) VALUES (5, 'pending-approvals-title-options', '2026-04-13T09:00:00.000Z');

-- 008-dropped-messages.ts
      CREATE TABLE IF NOT EXISTS unregistered_senders (
        channel_type    TEXT NOT NULL,
        platform_id     TEXT NOT NULL,
        user_id         TEXT,
        sender_name     TEXT,
        reason          TEXT NOT NULL,
        messaging_group_id TEXT,
        agent_group_id  TEXT,
        message_count   INTEGER NOT NULL DEFAULT 1,
        first_seen      TEXT NOT NULL,
        last_seen       TEXT NOT NULL,
        PRIMARY KEY (channel_type, platform_id)
      );

      CREATE INDEX IF NOT EXISTS idx_unregistered_senders_last_seen
        ON unregistered_senders(last_seen);
INSERT INTO schema_version (version, name, applied) VALUES (6, 'dropped-messages', '2026-04-13T09:00:00.000Z');

-- 009-drop-pending-credentials.ts
      DROP INDEX IF EXISTS idx_pending_credentials_status;
      DROP TABLE IF EXISTS pending_credentials;
INSERT INTO schema_version (version, name, applied) VALUES (7, 'drop-pending-credentials', '2026-04-13T09:00:00.000Z');

-- 010-engage-modes.ts (a new database has no rows to backfill)
      ALTER TABLE messaging_group_agents ADD COLUMN engage_mode            TEXT;
      ALTER TABLE messaging_group_agents ADD COLUMN engage_pattern         TEXT;
      ALTER TABLE messaging_group_agents ADD COLUMN sender_scope           TEXT;
      ALTER TABLE messaging_group_agents ADD COLUMN ignored_message_policy TEXT;
      ALTER TABLE messaging_group_agents DROP COLUMN trigger_rules;
      ALTER TABLE messaging_group_agents DROP COLUMN response_scope;
INSERT INTO schema_version (version, name, applied) VALUES (8, 'engage-modes', '2026-04-13T09:00:00.000Z');

-- 011-pending-sender-approvals.ts
      CREATE TABLE IF NOT EXISTS pending_sender_approvals (
        id                   TEXT PRIMARY KEY,
        messaging_group_id   TEXT NOT NULL REFERENCES messaging_groups(id),
        agent_group_id       TEXT NOT NULL REFERENCES agent_groups(id),
        sender_identity      TEXT NOT NULL,      -- namespaced user id (channel_type:handle)
        sender_name          TEXT,
        original_message     TEXT NOT NULL,      -- JSON serialized InboundEvent
        approver_user_id     TEXT NOT NULL,
        created_at           TEXT NOT NULL,
        UNIQUE(messaging_group_id, sender_identity)
      );
      CREATE INDEX IF NOT EXISTS idx_pending_sender_approvals_mg
        ON pending_sender_approvals(messaging_group_id);
INSERT INTO schema_version (version, name, applied) VALUES (9, 'pending-sender-approvals', '2026-04-13T09:00:00.000Z');

-- 012-channel-registration.ts
ALTER TABLE messaging_groups ADD COLUMN denied_at TEXT;
      CREATE TABLE IF NOT EXISTS pending_channel_approvals (
        messaging_group_id   TEXT PRIMARY KEY REFERENCES messaging_groups(id),
        agent_group_id       TEXT NOT NULL REFERENCES agent_groups(id),
        original_message     TEXT NOT NULL,      -- JSON serialized InboundEvent
        approver_user_id     TEXT NOT NULL,
        created_at           TEXT NOT NULL
      );
INSERT INTO schema_version (version, name, applied) VALUES (10, 'channel-registration', '2026-04-13T09:00:00.000Z');

-- 013-approval-render-metadata.ts
ALTER TABLE pending_channel_approvals ADD COLUMN title TEXT NOT NULL DEFAULT '';
ALTER TABLE pending_channel_approvals ADD COLUMN options_json TEXT NOT NULL DEFAULT '[]';
ALTER TABLE pending_sender_approvals ADD COLUMN title TEXT NOT NULL DEFAULT '';
ALTER TABLE pending_sender_approvals ADD COLUMN options_json TEXT NOT NULL DEFAULT '[]';
INSERT INTO schema_version (version, name, applied) VALUES (11, 'approval-render-metadata', '2026-04-13T09:00:00.000Z');

-- 014-container-configs.ts
      CREATE TABLE container_configs (
        agent_group_id        TEXT PRIMARY KEY REFERENCES agent_groups(id) ON DELETE CASCADE,
        provider              TEXT,
        model                 TEXT,
        effort                TEXT,
        image_tag             TEXT,
        assistant_name        TEXT,
        max_messages_per_prompt INTEGER,
        skills                TEXT NOT NULL DEFAULT '"all"',
        mcp_servers           TEXT NOT NULL DEFAULT '{}',
        packages_apt          TEXT NOT NULL DEFAULT '[]',
        packages_npm          TEXT NOT NULL DEFAULT '[]',
        additional_mounts     TEXT NOT NULL DEFAULT '[]',
        updated_at            TEXT NOT NULL
      );
INSERT INTO schema_version (version, name, applied) VALUES (12, 'container-configs', '2026-04-13T09:00:00.000Z');

-- 015-cli-scope.ts
ALTER TABLE container_configs ADD COLUMN cli_scope TEXT NOT NULL DEFAULT 'group';
INSERT INTO schema_version (version, name, applied) VALUES (13, 'cli-scope', '2026-04-13T09:00:00.000Z');
