import Foundation
import Logging
import PostgresNIO
import HealthCore

/// The PostgreSQL store's tables, as versioned migrations numbered like the SQLite ones (`Schema`):
/// version N here holds what SQLite's vN holds, so `hmon db copy` and the code above the seam see the
/// same layout on both. Never edit a shipped migration: add a new one, on both engines, under the same
/// number from 16 on (`SchemaAgreementTests` compares the two live catalogs and the numbers; up to 15 the
/// lists differ: SQLite skipped 12 and 15, PostgreSQL 11, 12 and 14).
///
/// Types: ids and names `text`, times `bigint` milliseconds since 1970 (as on SQLite, so a copy is
/// exact), a reading's fields the JSON text as received (served byte for byte) with the interpreted
/// numbers kept beside it (generated from `jsonb` until version 15, written by hmon since), so the
/// screens' questions are answered from indexes as on SQLite. `hmon_meta` marks the database as hmon's, holds the schema version and
/// the change counter every write bumps.
///
/// Frozen as SQLite's are (see `Schema`): every statement and row is a literal or `ShippedDeviceTypes`', never
/// read from today's kinds, manifests or field names; a change to a shipped kind's wording, unit or type
/// comes as a new migration. A table created from now on is described once (`TableDescription`), as on SQLite.
enum PostgresSchema {
    /// What `hmon_meta.application` says in an hmon database.
    static let application = "hmon"

    /// Every migration, in version order.
    static let migrations: [(version: Int, name: String, sql: [String])] = (handWritten + laterMigrations)
        .sorted { $0.version < $1.version }

    /// What a version that only appends kinds' fields is called, as on SQLite.
    private static let kindsAdded = "kinds of reading added to built-in types"

    /// The migrations from version 21 on.
    private static let laterMigrations: [(version: Int, name: String, sql: [String])] = [
        (21, kindsAdded, addedFields(inSchema: 21)),
        (22, kindsAdded, addedFields(inSchema: 22)),
        (23, kindsAdded, addedFields(inSchema: 23)),
        // PostgreSQL's own (SQLite's v24 only numbers alike): the kept day sums were checked by counting and
        // summing `seq` over every reading of the days asked, which on a 1,000,000-reading store cost
        // 240 ms for the overview's three months and the insights' year. Now every write bumps a version
        // per user and UTC day it touched (statement triggers, so any writer counts: another server, a
        // copy, psql), and a day's kept sums hold while the versions of the UTC days it overlaps add up to
        // what they did when it was summed: a look-up per day. A user's versions go with the user.
        (24, "readings' days versioned, so kept day sums are checked without reading the readings", [
            """
            CREATE TABLE reading_day_versions (
                uid bytea NOT NULL,
                day bigint NOT NULL,
                version bigint NOT NULL,
                PRIMARY KEY (uid, day)
            )
            """,
            touchDays(function: "hmon_touch_reading_days", rows: "SELECT uid, ts FROM touched"),
            touchDays(function: "hmon_touch_changed_reading_days",
                      rows: "SELECT uid, ts FROM touched UNION ALL SELECT uid, ts FROM touched_after"),
            """
            CREATE TRIGGER messages_days_added AFTER INSERT ON messages REFERENCING NEW TABLE AS touched
                FOR EACH STATEMENT EXECUTE FUNCTION hmon_touch_reading_days()
            """,
            """
            CREATE TRIGGER messages_days_removed AFTER DELETE ON messages REFERENCING OLD TABLE AS touched
                FOR EACH STATEMENT EXECUTE FUNCTION hmon_touch_reading_days()
            """,
            """
            CREATE TRIGGER messages_days_changed AFTER UPDATE ON messages REFERENCING OLD TABLE AS touched NEW TABLE AS touched_after
                FOR EACH STATEMENT EXECUTE FUNCTION hmon_touch_changed_reading_days()
            """,
            """
            CREATE OR REPLACE FUNCTION hmon_delete_users_readings() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                DELETE FROM messages WHERE uid = hmon_binary_id(OLD.id);
                DELETE FROM reading_day_versions WHERE uid = hmon_binary_id(OLD.id);
                RETURN NULL;
            END $$
            """,
        ]),
        // See SQLite's v25: every server of the store checks a signed link alike.
        (25, "push links keep their signing secret and the app's user they follow", [
            "ALTER TABLE push_links ADD COLUMN signing_secret text",
            "ALTER TABLE push_links ADD COLUMN source_user bigint",
        ]),
        // See SQLite's v26: a bucketed HRV mean keeps its sample count.
        (26, "HRV meters keep a mean's sample count", addedFields(inSchema: 26)),
        // See SQLite's v27: the sync doctor's counts per link.
        (27, "links note what came by them", [
            "ALTER TABLE push_links ADD COLUMN last_arrival_at bigint",
            """
            CREATE TABLE link_arrivals (
                link_id text NOT NULL REFERENCES push_links(id) ON DELETE CASCADE,
                day bigint NOT NULL,
                kind text NOT NULL,
                readings bigint NOT NULL,
                PRIMARY KEY (link_id, day, kind)
            )
            """,
            """
            CREATE TABLE link_refusals (
                link_id text NOT NULL REFERENCES push_links(id) ON DELETE CASCADE,
                number bigint NOT NULL,
                at bigint NOT NULL,
                why text NOT NULL,
                PRIMARY KEY (link_id, number)
            )
            """,
        ]),
        // See SQLite's v28: meals and activity say where they came from.
        (28, "food logs and activity trackers keep where a reading came from",
         addedFields(inSchema: 28)),
        // See SQLite's v29: one measurement by two ways is counted once. The readings kept aside go with their
        // device and account as the counted ones do (the two functions the triggers run, extended).
        (29, "one measurement by two ways is counted once", [
            "ALTER TABLE messages ADD COLUMN via text",
            """
            CREATE TABLE readings_aside (
                mid bytea PRIMARY KEY,
                sdid bytea NOT NULL,
                sdtid bytea NOT NULL,
                uid bytea NOT NULL,
                ts bigint NOT NULL,
                cts bigint NOT NULL,
                mv bigint NOT NULL,
                data text NOT NULL,
                weight double precision,
                active_energy double precision,
                calories double precision,
                basal_energy double precision,
                via text NOT NULL,
                counted_mid bytea NOT NULL
            )
            """,
            "CREATE INDEX readings_aside_by_user_time ON readings_aside (uid, ts)",
            """
            CREATE TABLE source_orders (
                user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                family text NOT NULL,
                preferred text NOT NULL,
                PRIMARY KEY (user_id, family)
            )
            """,
            """
            CREATE OR REPLACE FUNCTION hmon_delete_users_readings() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                DELETE FROM messages WHERE uid = hmon_binary_id(OLD.id);
                DELETE FROM readings_aside WHERE uid = hmon_binary_id(OLD.id);
                DELETE FROM reading_day_versions WHERE uid = hmon_binary_id(OLD.id);
                RETURN NULL;
            END $$
            """,
            """
            CREATE OR REPLACE FUNCTION hmon_delete_devices_readings() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                DELETE FROM messages WHERE sdid = hmon_binary_id(OLD.id);
                DELETE FROM readings_aside WHERE sdid = hmon_binary_id(OLD.id);
                RETURN NULL;
            END $$
            """,
        ]),
        // PostgreSQL's own (SQLite's v30 only numbers alike): a write announces what it changed from where the
        // rows change, as the day versions are kept, so no write path can forget to, and a write hmon did not
        // make (psql, another program) is announced too. Statement triggers note, per transaction, whose data
        // changed and which kinds (a reading's from its fields, through `field_change_kinds`, which the store
        // fills from the kinds' table each time it opens); revoked tokens and a moved change token are noted
        // too. At the commit a deferred trigger moves the token if the write did not, sends one announcement per
        // user (the payload `StoreAnnouncement` decodes) and clears the notes, which no other transaction sees.
        (30, "writes announced by triggers where the rows change", [
            """
            CREATE TABLE field_change_kinds (
                field text PRIMARY KEY,
                kinds text[] NOT NULL
            )
            """,
            """
            CREATE UNLOGGED TABLE pending_announcements (
                xact xid8 NOT NULL DEFAULT pg_current_xact_id(),
                user_id text NOT NULL,
                kinds text[],
                credentials boolean NOT NULL DEFAULT false,
                PRIMARY KEY (xact, user_id)
            )
            """,
            // Two sets of kinds noted in one transaction: null (not known) stays null, else the union. A note
            // is only rewritten when it grows: an import's thousands of statements would otherwise each leave
            // a row version behind, which the next statement's conflict check walks past.
            """
            CREATE FUNCTION hmon_kinds_union(a text[], b text[]) RETURNS text[] LANGUAGE plpgsql IMMUTABLE AS $$
            BEGIN
                IF a IS NULL OR b IS NULL THEN RETURN NULL; END IF;
                RETURN ARRAY(SELECT DISTINCT k FROM unnest(a || b) AS k ORDER BY k);
            END $$
            """,
            // The transaction's own note (user ''): it moved the change token, or revoked tokens.
            """
            CREATE FUNCTION hmon_note_token_moved() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO pending_announcements (user_id) VALUES ('') ON CONFLICT DO NOTHING;
                RETURN NULL;
            END $$
            """,
            """
            CREATE FUNCTION hmon_note_tokens_revoked() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF EXISTS (SELECT 1 FROM gone) THEN
                    INSERT INTO pending_announcements AS p (user_id, credentials) VALUES ('', true)
                    ON CONFLICT (xact, user_id) DO UPDATE SET credentials = true WHERE NOT p.credentials;
                END IF;
                RETURN NULL;
            END $$
            """,
            // A reading's field names. Its text is not checked on the way in (version 15): one that is not a JSON
            // object gives a name no kind has, so its user's kinds are unknown rather than the write refused.
            """
            CREATE FUNCTION hmon_field_names(data text) RETURNS text[] LANGUAGE plpgsql IMMUTABLE AS $$
            BEGIN
                RETURN ARRAY(SELECT json_object_keys(data::json));
            EXCEPTION WHEN others THEN
                RETURN ARRAY[''];
            END $$
            """,
            // Readings (counted or aside): per user still there, the kinds of every field of the rows; a field
            // the table does not know makes the user's kinds unknown. Each distinct field is looked up once
            // (an import's statement holds thousands of rows).
            """
            CREATE FUNCTION hmon_note_readings() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO pending_announcements AS p (user_id, kinds)
                SELECT u.id, CASE WHEN bool_or(f.field IS NOT NULL AND c.field IS NULL) THEN NULL
                                  ELSE coalesce(array_agg(DISTINCT k ORDER BY k) FILTER (WHERE k IS NOT NULL), '{}') END
                FROM (SELECT DISTINCT t.uid, f.field FROM touched AS t
                      LEFT JOIN LATERAL unnest(hmon_field_names(t.data)) AS f(field) ON true) AS f
                JOIN users AS u ON u.key = f.uid
                LEFT JOIN field_change_kinds AS c ON c.field = f.field
                LEFT JOIN LATERAL unnest(c.kinds) AS k ON true
                GROUP BY u.id ORDER BY u.id
                ON CONFLICT (xact, user_id) DO UPDATE SET kinds = hmon_kinds_union(p.kinds, EXCLUDED.kinds)
                    WHERE p.kinds IS NOT NULL AND (EXCLUDED.kinds IS NULL OR NOT EXCLUDED.kinds <@ p.kinds);
                RETURN NULL;
            END $$
            """,
            // An edit: the fields before and after. A reading moved to another device (a merge) also changes
            // the devices screen, which shows each device's latest.
            """
            CREATE FUNCTION hmon_note_changed_readings() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO pending_announcements AS p (user_id, kinds)
                SELECT u.id, CASE WHEN bool_or(f.field IS NOT NULL AND c.field IS NULL) THEN NULL
                                  ELSE coalesce(array_agg(DISTINCT k ORDER BY k) FILTER (WHERE k IS NOT NULL), '{}') END
                FROM (SELECT DISTINCT t.uid, f.field
                      FROM (SELECT uid, data FROM touched UNION ALL SELECT uid, data FROM touched_after) AS t
                      LEFT JOIN LATERAL unnest(hmon_field_names(t.data)) AS f(field) ON true) AS f
                JOIN users AS u ON u.key = f.uid
                LEFT JOIN field_change_kinds AS c ON c.field = f.field
                LEFT JOIN LATERAL unnest(c.kinds) AS k ON true
                GROUP BY u.id ORDER BY u.id
                ON CONFLICT (xact, user_id) DO UPDATE SET kinds = hmon_kinds_union(p.kinds, EXCLUDED.kinds)
                    WHERE p.kinds IS NOT NULL AND (EXCLUDED.kinds IS NULL OR NOT EXCLUDED.kinds <@ p.kinds);
                INSERT INTO pending_announcements AS p (user_id, kinds)
                SELECT u.id, ARRAY['devices']
                FROM (SELECT DISTINCT a.uid FROM touched AS b JOIN touched_after AS a ON a.mid = b.mid WHERE a.sdid <> b.sdid) AS m
                JOIN users AS u ON u.key = m.uid
                ORDER BY u.id
                ON CONFLICT (xact, user_id) DO UPDATE SET kinds = hmon_kinds_union(p.kinds, EXCLUDED.kinds)
                    WHERE p.kinds IS NOT NULL AND (EXCLUDED.kinds IS NULL OR NOT EXCLUDED.kinds <@ p.kinds);
                RETURN NULL;
            END $$
            """,
            // A table of the user's own that a screen shows whole: the trigger's arguments name the user's
            // column and the kind.
            """
            CREATE FUNCTION hmon_note_users_rows() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO pending_announcements AS p (user_id, kinds)
                SELECT DISTINCT u.id, ARRAY[TG_ARGV[1]]
                FROM touched AS t JOIN users AS u ON u.id = to_jsonb(t) ->> TG_ARGV[0]
                ORDER BY u.id
                ON CONFLICT (xact, user_id) DO UPDATE SET kinds = hmon_kinds_union(p.kinds, EXCLUDED.kinds)
                    WHERE p.kinds IS NOT NULL AND (EXCLUDED.kinds IS NULL OR NOT EXCLUDED.kinds <@ p.kinds);
                RETURN NULL;
            END $$
            """,
            // At the commit, once: the first call finds the notes, moves the token if the write did not (hmon's
            // writes move it first), sends, and clears them; later calls (one per note) find none.
            """
            CREATE FUNCTION hmon_send_announcements() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                token bigint;
                revoked boolean;
                announced integer := 0;
                note record;
            BEGIN
                IF NOT EXISTS (SELECT 1 FROM pending_announcements WHERE xact = pg_current_xact_id()) THEN
                    RETURN NULL;
                END IF;
                UPDATE hmon_meta SET changes = changes + 1 WHERE xmin <> pg_current_xact_id()::xid;
                SELECT changes INTO token FROM hmon_meta;
                SELECT bool_or(credentials) INTO revoked FROM pending_announcements WHERE xact = pg_current_xact_id();
                FOR note IN SELECT user_id, kinds FROM pending_announcements
                            WHERE xact = pg_current_xact_id() AND user_id <> '' ORDER BY user_id COLLATE "C" LOOP
                    PERFORM pg_notify('hmon_changes', jsonb_strip_nulls(jsonb_build_object(
                        't', token, 'u', note.user_id, 'k', to_jsonb(note.kinds),
                        'c', CASE WHEN revoked AND announced = 0 THEN true END))::text);
                    announced := announced + 1;
                END LOOP;
                IF announced = 0 THEN
                    PERFORM pg_notify('hmon_changes', jsonb_strip_nulls(jsonb_build_object(
                        't', token, 'c', CASE WHEN revoked THEN true END))::text);
                END IF;
                DELETE FROM pending_announcements WHERE xact = pg_current_xact_id();
                RETURN NULL;
            END $$
            """,
            """
            CREATE CONSTRAINT TRIGGER pending_announcements_sent AFTER INSERT ON pending_announcements
                DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION hmon_send_announcements()
            """,
            "CREATE TRIGGER hmon_meta_token_moved AFTER UPDATE OF changes ON hmon_meta FOR EACH ROW EXECUTE FUNCTION hmon_note_token_moved()",
            """
            CREATE TRIGGER messages_announced_added AFTER INSERT ON messages REFERENCING NEW TABLE AS touched
                FOR EACH STATEMENT EXECUTE FUNCTION hmon_note_readings()
            """,
            """
            CREATE TRIGGER messages_announced_removed AFTER DELETE ON messages REFERENCING OLD TABLE AS touched
                FOR EACH STATEMENT EXECUTE FUNCTION hmon_note_readings()
            """,
            """
            CREATE TRIGGER messages_announced_changed AFTER UPDATE ON messages REFERENCING OLD TABLE AS touched NEW TABLE AS touched_after
                FOR EACH STATEMENT EXECUTE FUNCTION hmon_note_changed_readings()
            """,
            """
            CREATE TRIGGER readings_aside_announced_added AFTER INSERT ON readings_aside REFERENCING NEW TABLE AS touched
                FOR EACH STATEMENT EXECUTE FUNCTION hmon_note_readings()
            """,
            """
            CREATE TRIGGER readings_aside_announced_removed AFTER DELETE ON readings_aside REFERENCING OLD TABLE AS touched
                FOR EACH STATEMENT EXECUTE FUNCTION hmon_note_readings()
            """,
            """
            CREATE TRIGGER readings_aside_announced_changed AFTER UPDATE ON readings_aside REFERENCING OLD TABLE AS touched NEW TABLE AS touched_after
                FOR EACH STATEMENT EXECUTE FUNCTION hmon_note_changed_readings()
            """,
            """
            CREATE TRIGGER devices_announced_added AFTER INSERT ON devices REFERENCING NEW TABLE AS touched
                FOR EACH STATEMENT EXECUTE FUNCTION hmon_note_users_rows('uid', 'devices')
            """,
            """
            CREATE TRIGGER devices_announced_removed AFTER DELETE ON devices REFERENCING OLD TABLE AS touched
                FOR EACH STATEMENT EXECUTE FUNCTION hmon_note_users_rows('uid', 'devices')
            """,
            """
            CREATE TRIGGER devices_announced_changed AFTER UPDATE ON devices REFERENCING NEW TABLE AS touched
                FOR EACH STATEMENT EXECUTE FUNCTION hmon_note_users_rows('uid', 'devices')
            """,
            """
            CREATE TRIGGER exist_owners_announced_added AFTER INSERT ON exist_owners REFERENCING NEW TABLE AS touched
                FOR EACH STATEMENT EXECUTE FUNCTION hmon_note_users_rows('uid', 'devices')
            """,
            """
            CREATE TRIGGER exist_owners_announced_removed AFTER DELETE ON exist_owners REFERENCING OLD TABLE AS touched
                FOR EACH STATEMENT EXECUTE FUNCTION hmon_note_users_rows('uid', 'devices')
            """,
            """
            CREATE TRIGGER profiles_announced_changed AFTER UPDATE ON profiles REFERENCING NEW TABLE AS touched
                FOR EACH STATEMENT EXECUTE FUNCTION hmon_note_users_rows('user_id', 'profile')
            """,
            """
            CREATE TRIGGER tokens_announced_revoked AFTER DELETE ON tokens REFERENCING OLD TABLE AS gone
                FOR EACH STATEMENT EXECUTE FUNCTION hmon_note_tokens_revoked()
            """,
            """
            CREATE TRIGGER tokens_announced_spent AFTER UPDATE ON tokens REFERENCING NEW TABLE AS gone
                FOR EACH STATEMENT EXECUTE FUNCTION hmon_note_tokens_revoked()
            """,
            """
            CREATE TRIGGER personal_tokens_announced_revoked AFTER DELETE ON personal_tokens REFERENCING OLD TABLE AS gone
                FOR EACH STATEMENT EXECUTE FUNCTION hmon_note_tokens_revoked()
            """,
        ]),
        // See SQLite's v31: a night keeps its window and stages.
        (31, "nights keep their window and stages", addedFields(inSchema: 31)),
        // See SQLite's v32: vital signs on watches and scales.
        (32, kindsAdded, addedFields(inSchema: 32)),
        // See SQLite's v33: a person's own sleep need.
        (33, "a sleep need in the profile", ["ALTER TABLE profiles ADD COLUMN sleep_need_minutes double precision"]),
    ]

    /// A statement trigger's function that bumps the version of each user and UTC day among `rows`
    /// (`uid`, `ts`), once per statement. The rows are in order, so concurrent writers lock them alike.
    private static func touchDays(function: String, rows: String) -> String {
        """
        CREATE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO reading_day_versions AS v (uid, day, version)
            SELECT uid, floor(ts / 86400000.0)::bigint AS day, 1 FROM (\(rows)) AS r GROUP BY 1, 2 ORDER BY 1, 2
            ON CONFLICT (uid, day) DO UPDATE SET version = v.version + 1;
            RETURN NULL;
        END $$
        """
    }

    private static let handWritten: [(version: Int, name: String, sql: [String])] = [
        (1, "accounts, devices, messages, tokens", [
            """
            CREATE TABLE hmon_meta (
                application text NOT NULL,
                version integer NOT NULL,
                changes bigint NOT NULL DEFAULT 0
            )
            """,
            "INSERT INTO hmon_meta (application, version) VALUES ('\(application)', 0)",
            """
            CREATE TABLE users (
                id text PRIMARY KEY,
                name text NOT NULL,
                full_name text NOT NULL DEFAULT '',
                email text NOT NULL DEFAULT '',
                password_hash text NOT NULL,
                created_at bigint NOT NULL,
                modified_at bigint NOT NULL
            )
            """,
            "CREATE UNIQUE INDEX users_by_lower_name ON users (lower(name))",
            """
            CREATE TABLE profiles (
                user_id text PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                birth_date text,
                sex text CHECK (sex IN ('female', 'male')),
                height_cm double precision,
                lean_mass_kg double precision,
                mass_unit text NOT NULL DEFAULT 'kg',
                energy_unit text NOT NULL DEFAULT 'kcal',
                bmr_formula text NOT NULL DEFAULT 'mifflinStJeor'
            )
            """,
            """
            CREATE TABLE device_types (
                id text PRIMARY KEY,
                name text NOT NULL,
                unique_name text NOT NULL UNIQUE,
                description text,
                latest_version integer NOT NULL DEFAULT 1
            )
            """,
            "CREATE UNIQUE INDEX device_types_by_lower_name ON device_types (lower(name))",
            """
            CREATE TABLE device_type_fields (
                dtid text NOT NULL REFERENCES device_types(id) ON DELETE CASCADE,
                position integer NOT NULL,
                name text NOT NULL,
                type text NOT NULL CHECK (type IN ('Double', 'Integer', 'String')),
                unit text,
                description text NOT NULL,
                PRIMARY KEY (dtid, name)
            )
            """,
            """
            CREATE TABLE devices (
                id text PRIMARY KEY,
                uid text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                dtid text NOT NULL REFERENCES device_types(id),
                name text NOT NULL,
                manifest_version integer NOT NULL DEFAULT 1,
                created_at bigint NOT NULL,
                connected boolean NOT NULL DEFAULT true,
                seq bigserial
            )
            """,
            "CREATE INDEX devices_by_user ON devices (uid, created_at, seq)",
            """
            CREATE TABLE messages (
                mid text PRIMARY KEY,
                sdid text NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
                sdtid text NOT NULL,
                uid text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                ts bigint NOT NULL,
                cts bigint NOT NULL,
                mv integer NOT NULL DEFAULT 1,
                data text NOT NULL CHECK (data::jsonb IS NOT NULL),
                seq bigserial,
                weight double precision GENERATED ALWAYS AS (\(numeric("weight"))) STORED,
                active_energy double precision GENERATED ALWAYS AS (\(numeric("activeEnergy"))) STORED,
                calories double precision GENERATED ALWAYS AS (\(numeric("calories"))) STORED,
                basal_energy double precision GENERATED ALWAYS AS (\(numeric("basalEnergy"))) STORED
            )
            """,
            // The same three questions as on SQLite, answered from the same indexes.
            "CREATE INDEX messages_by_device ON messages (sdid, ts, mid)",
            "CREATE INDEX messages_by_user_time ON messages (uid, ts) INCLUDE (active_energy, calories, basal_energy, seq)",
            "CREATE INDEX messages_weights ON messages (uid, ts) INCLUDE (weight) WHERE weight IS NOT NULL",
            """
            CREATE TABLE tokens (
                hash text PRIMARY KEY,
                user_id text REFERENCES users(id) ON DELETE CASCADE,
                kind text NOT NULL CHECK (kind IN ('access', 'refresh', 'code', 'session')),
                client_id text,
                scope text,
                redirect_uri text,
                expires_at bigint,
                created_at bigint NOT NULL
            )
            """,
            "CREATE INDEX tokens_by_user ON tokens (user_id)",
            """
            CREATE TABLE oauth_clients (
                id text PRIMARY KEY,
                secret_hash text NOT NULL,
                name text NOT NULL,
                redirect_uri text,
                created_at bigint NOT NULL
            )
            """,
        ] + ShippedDeviceTypes.firstSchema.flatMap(insert)),
        (2, "a client posts for its owner", [
            "ALTER TABLE oauth_clients ADD COLUMN owner_id text REFERENCES users(id) ON DELETE CASCADE",
        ]),
        (3, "energy consumed as recorded", [
            "UPDATE device_type_fields SET type = 'Double' WHERE dtid = '\(ShippedDeviceTypes.calorieTrackerID)' AND name = 'calories' AND type = 'Integer'",
        ]),
        (4, "HRV measurements and Welltory callback links",
         insert(ShippedDeviceTypes.hrvMeter) + [
            """
            CREATE TABLE welltory_links (
                hash text PRIMARY KEY,
                user_id text NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
                device_id text NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
                created_at bigint NOT NULL
            )
            """,
        ]),
        (5, "a goal weight", ["ALTER TABLE profiles ADD COLUMN goal_kg double precision"]),
        (6, "OAuth token families and spent codes", [
            "ALTER TABLE tokens ADD COLUMN family text",
            "ALTER TABLE tokens ADD COLUMN spent_at bigint",
            "CREATE INDEX tokens_by_family ON tokens (family) WHERE family IS NOT NULL",
        ]),
        (7, "user names compared after NFKC and case folding", [
            // Computed by `UserNames` in Swift, as on SQLite; a new database has no users to fill in.
            "ALTER TABLE users ADD COLUMN name_key text NOT NULL DEFAULT ''",
            "ALTER TABLE users ADD COLUMN name_skeleton text NOT NULL DEFAULT ''",
            "CREATE INDEX users_by_name_key ON users (name_key)",
            "CREATE INDEX users_by_name_skeleton ON users (name_skeleton)",
        ]),
        (8, "resting heart rate on activity trackers", addedFields(inSchema: 8)),
        (9, "per-day sums kept for the insights", [
            """
            CREATE TABLE day_totals_cache (
                uid text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                start bigint NOT NULL,
                stop bigint NOT NULL,
                readings bigint NOT NULL,
                rowid_sum bigint NOT NULL,
                totals text NOT NULL,
                PRIMARY KEY (uid, start, stop)
            )
            """,
        ]),
        (10, "Exist's API: attribute owners, personal tokens, pushes", [
            """
            CREATE TABLE exist_owners (
                uid text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                attribute text NOT NULL,
                client_id text NOT NULL,
                service text NOT NULL,
                device_id text NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
                PRIMARY KEY (uid, attribute)
            )
            """,
            """
            CREATE TABLE exist_service_devices (
                uid text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                client_id text NOT NULL,
                dtid text NOT NULL,
                device_id text NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
                PRIMARY KEY (uid, client_id, dtid)
            )
            """,
            """
            CREATE TABLE personal_tokens (
                id text PRIMARY KEY,
                hash text NOT NULL UNIQUE,
                user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                label text NOT NULL,
                scope text NOT NULL,
                created_at bigint NOT NULL
            )
            """,
            """
            CREATE TABLE exist_pushed (
                server text NOT NULL,
                uid text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                attribute text NOT NULL,
                day text NOT NULL,
                value double precision NOT NULL,
                PRIMARY KEY (server, uid, attribute, day)
            )
            """,
        ]),
        // SQLite's 11 (a weigh-in's source) is in this engine's first schema, and 12 is unused on both.
        (13, "a generic scale type", insert(ShippedDeviceTypes.scale)),
        // PostgreSQL's own (SQLite has no version 15): a reading's device and owner are no longer checked by
        // foreign keys. PostgreSQL checks a foreign key with a query per inserted row, which was a third of
        // a large import's time (measured: 200 MB export, 9.5 s with the keys, 6.4 s without). hmon's
        // writers lock the device row instead (`lockedDevice`, `FOR KEY SHARE`, what the key's check takes),
        // once per device and transaction; deleting a device or an account still deletes its readings,
        // by the triggers below.
        // Its ids are also compared byte by byte (`COLLATE "C"`), as SQLite compares them: they are ASCII, so
        // nothing sorts differently, and every index step no longer goes through the locale's comparison
        // (8 % of the same import's time). And the four numbers beside the JSON are written by hmon
        // (`ReadingNumbers`) instead of generated: each generated column parsed the JSON twice, and with the
        // data's check that was nine parses a row (16 % of the import). Existing values stay as they are.
        (15, "readings' device and owner checked once per write, not per row; ids compared as bytes; numbers written by hmon", [
            "ALTER TABLE messages DROP CONSTRAINT messages_sdid_fkey",
            "ALTER TABLE messages DROP CONSTRAINT messages_uid_fkey",
            "ALTER TABLE messages DROP CONSTRAINT messages_data_check",
            """
            ALTER TABLE messages ALTER COLUMN weight DROP EXPRESSION, ALTER COLUMN active_energy DROP EXPRESSION,
                ALTER COLUMN calories DROP EXPRESSION, ALTER COLUMN basal_energy DROP EXPRESSION
            """,
            """
            ALTER TABLE messages ALTER COLUMN mid TYPE text COLLATE "C", ALTER COLUMN sdid TYPE text COLLATE "C",
                ALTER COLUMN uid TYPE text COLLATE "C"
            """,
        ] + readingsGoWith("devices", key: "sdid") + readingsGoWith("users", key: "uid")),
        // From 16 on, the same number as on SQLite: see `Schema`'s v16.
        (16, "PKCE challenges kept with their codes", ["ALTER TABLE tokens ADD COLUMN code_challenge text"]),
        (17, "links apps push readings to", [
            """
            CREATE TABLE push_links (
                id text NOT NULL PRIMARY KEY,
                kind text NOT NULL,
                hash text NOT NULL UNIQUE,
                user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                created_at bigint NOT NULL,
                last_used_at bigint
            )
            """,
            "CREATE INDEX push_links_by_user ON push_links(user_id, kind)",
        ]),
        (18, "an undo journal per session", [
            """
            CREATE TABLE undo_journal (
                user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                session text NOT NULL,
                step bigint NOT NULL,
                kind text NOT NULL,
                reading text NOT NULL,
                made_at bigint NOT NULL,
                PRIMARY KEY (user_id, session, step)
            )
            """,
            "CREATE INDEX undo_journal_by_age ON undo_journal(user_id, made_at)",
        ]),
        (19, "Apple's SDNN and refused beat lists on HRV meters", addedFields(inSchema: 19)),
        // As SQLite's v20: a reading's four ids as `BinaryID` bytes (`ByteaID`), 65 bytes instead of 130 in
        // the row and in each index. `hmon_binary_id` is `BinaryID.encode` in SQL, for this migration, the
        // devices' and users' `key` (kept by a trigger here; SQLite's readings refer to it by foreign key)
        // and the triggers that delete a device's or an account's readings with it.
        (20, "a reading's ids as bytes", [
            """
            CREATE FUNCTION hmon_binary_id(id text) RETURNS bytea LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
                SELECT CASE
                    WHEN id ~ '^[0-9a-f]{32}$' THEN decode(id, 'hex')
                    WHEN id ~ '^dt[0-9a-f]{32}$' THEN '\\x64'::bytea || decode(substr(id, 3), 'hex')
                    WHEN octet_length(id) = 15 THEN '\\xff'::bytea || convert_to(id, 'UTF8') || '\\xff'::bytea
                    ELSE '\\xff'::bytea || convert_to(id, 'UTF8')
                END
            $$
            """,
            """
            CREATE FUNCTION hmon_set_key() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                NEW.key := hmon_binary_id(NEW.id);
                RETURN NEW;
            END $$
            """,
            "ALTER TABLE users ADD COLUMN key bytea",
            "UPDATE users SET key = hmon_binary_id(id)",
            "CREATE UNIQUE INDEX users_by_key ON users (key)",
            "CREATE TRIGGER users_key BEFORE INSERT OR UPDATE OF id ON users FOR EACH ROW EXECUTE FUNCTION hmon_set_key()",
            "ALTER TABLE devices ADD COLUMN key bytea",
            "UPDATE devices SET key = hmon_binary_id(id)",
            "CREATE UNIQUE INDEX devices_by_key ON devices (key)",
            "CREATE TRIGGER devices_key BEFORE INSERT OR UPDATE OF id ON devices FOR EACH ROW EXECUTE FUNCTION hmon_set_key()",
            """
            ALTER TABLE messages ALTER COLUMN mid TYPE bytea USING hmon_binary_id(mid),
                ALTER COLUMN sdid TYPE bytea USING hmon_binary_id(sdid),
                ALTER COLUMN sdtid TYPE bytea USING hmon_binary_id(sdtid),
                ALTER COLUMN uid TYPE bytea USING hmon_binary_id(uid)
            """,
        ] + readingsGoWith("devices", key: "sdid", replacing: true) + readingsGoWith("users", key: "uid", replacing: true)),
    ]

    static var latestVersion: Int { migrations.last!.version }

    /// A trigger that deletes a device's or an account's readings with it: what the readings' foreign keys
    /// did (`ON DELETE CASCADE`) before version 15. From version 20 (`replacing`) the readings name it by
    /// its id's bytes; the trigger itself is kept.
    private static func readingsGoWith(_ table: String, key column: String, replacing: Bool = false) -> [String] {
        let function = "hmon_delete_\(table)_readings"
        let definition = """
            CREATE OR REPLACE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                DELETE FROM messages WHERE \(column) = \(replacing ? "hmon_binary_id(OLD.id)" : "OLD.id");
                RETURN NULL;
            END $$
            """
        if replacing { return [definition] }
        return [definition, "CREATE TRIGGER \(table)_delete_readings AFTER DELETE ON \(table) FOR EACH ROW EXECUTE FUNCTION \(function)()"]
    }

    /// A field's value when it is a JSON number, NULL otherwise (as `Schema.numeric` on SQLite).
    static func numeric(_ field: String) -> String {
        "CASE WHEN jsonb_typeof(data::jsonb -> '\(field)') = 'number' THEN (data::jsonb ->> '\(field)')::double precision END"
    }

    private static func quoted(_ text: String?) -> String {
        guard let text else { return "NULL" }
        return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    private static func insert(_ type: ShippedDeviceTypes.TypeRow) -> [String] {
        ["INSERT INTO device_types (id, name, unique_name, description, latest_version) VALUES (\(quoted(type.id)), \(quoted(type.name)), \(quoted(type.uniqueName)), \(quoted(type.description)), \(type.latestVersion))"]
            + type.fields.enumerated().map { position, field in
                "INSERT INTO device_type_fields (dtid, position, name, type, unit, description) VALUES (\(quoted(type.id)), \(position), \(quoted(field.name)), \(quoted(field.type)), \(quoted(field.unit)), \(quoted(field.description)))"
            }
    }

    /// The fields schema `version` adds (`ShippedDeviceTypes.appended`), each appended to its type's stored
    /// fields unless already there (a store made since has them from its type's first migration).
    private static func addedFields(inSchema version: Int) -> [String] {
        ShippedDeviceTypes.appended(inSchema: version).map { added in
            let id = quoted(added.dtid), field = added.field
            return """
                INSERT INTO device_type_fields (dtid, position, name, type, unit, description)
                SELECT \(id), coalesce(max(position), -1) + 1, \(quoted(field.name)), \(quoted(field.type)), \(quoted(field.unit)), \(quoted(field.description))
                FROM device_type_fields WHERE dtid = \(id)
                ON CONFLICT DO NOTHING
                """
        }
    }
}
