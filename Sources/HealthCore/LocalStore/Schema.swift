import Foundation
import GRDB

/// The store's tables, as a list of versioned migrations. Never edit a shipped migration: add a new one.
///
/// The interpreted reading fields (`weight`, `activeEnergy`, `calories`, `basalEnergy`) are also kept as
/// stored generated columns, so the dashboard's questions ("today's energy", "the weight series") are
/// answered from an index without parsing any JSON.
enum Schema {
    /// `PRAGMA application_id` of an hmon store: "hmon" in ASCII. A file with another id is someone else's.
    static let applicationID: Int32 = 0x686D_6F6E

    /// Whether hmon may use a database with this `application_id`: its own, or an SQLite file nobody has
    /// given a schema yet.
    static func accepts(applicationID: Int32, hasSchema: Bool) -> Bool {
        applicationID == Self.applicationID || (applicationID == 0 && !hasSchema)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: accounts, devices, messages, tokens") { db in
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")
            try db.execute(sql: """
                CREATE TABLE users (
                    id TEXT NOT NULL PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
                    full_name TEXT NOT NULL DEFAULT '',
                    email TEXT NOT NULL DEFAULT '',
                    password_hash TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    modified_at INTEGER NOT NULL
                );
                CREATE TABLE profiles (
                    user_id TEXT NOT NULL PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                    birth_date TEXT,
                    sex TEXT CHECK (sex IN ('female', 'male')),
                    height_cm REAL,
                    lean_mass_kg REAL,
                    mass_unit TEXT NOT NULL DEFAULT 'kg',
                    energy_unit TEXT NOT NULL DEFAULT 'kcal',
                    bmr_formula TEXT NOT NULL DEFAULT 'mifflinStJeor'
                );
                CREATE TABLE device_types (
                    id TEXT NOT NULL PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
                    unique_name TEXT NOT NULL UNIQUE,
                    description TEXT,
                    latest_version INTEGER NOT NULL DEFAULT 1
                );
                CREATE TABLE device_type_fields (
                    dtid TEXT NOT NULL REFERENCES device_types(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    name TEXT NOT NULL,
                    type TEXT NOT NULL CHECK (type IN ('Double', 'Integer', 'String')),
                    unit TEXT,
                    description TEXT NOT NULL,
                    PRIMARY KEY (dtid, name)
                );
                CREATE TABLE devices (
                    id TEXT NOT NULL PRIMARY KEY,
                    uid TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    dtid TEXT NOT NULL REFERENCES device_types(id),
                    name TEXT NOT NULL,
                    manifest_version INTEGER NOT NULL DEFAULT 1,
                    created_at INTEGER NOT NULL,
                    connected INTEGER NOT NULL DEFAULT 1
                );
                CREATE INDEX devices_by_user ON devices(uid, created_at);
                CREATE TABLE messages (
                    mid TEXT NOT NULL PRIMARY KEY,
                    sdid TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
                    sdtid TEXT NOT NULL,
                    uid TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    ts INTEGER NOT NULL,
                    cts INTEGER NOT NULL,
                    mv INTEGER NOT NULL DEFAULT 1,
                    data TEXT NOT NULL CHECK (json_valid(data)),
                    weight REAL GENERATED ALWAYS AS (\(numeric(Field.weight))) STORED,
                    active_energy REAL GENERATED ALWAYS AS (\(numeric(Field.activeEnergy))) STORED,
                    calories REAL GENERATED ALWAYS AS (\(numeric(Field.calories))) STORED,
                    basal_energy REAL GENERATED ALWAYS AS (\(numeric(Field.basalEnergy))) STORED
                );
                -- "the last N readings of a device" and a device's range pages: one index range, newest first.
                CREATE INDEX messages_by_device ON messages(sdid, ts, mid);
                -- "a user's readings in a day": the energy sums are read from this index alone.
                CREATE INDEX messages_by_user_time ON messages(uid, ts, active_energy, calories, basal_energy);
                -- "the user's weights in a period" and "the latest weight before a day".
                CREATE INDEX messages_weights ON messages(uid, ts, weight) WHERE weight IS NOT NULL;
                CREATE TABLE tokens (
                    hash TEXT NOT NULL PRIMARY KEY,
                    user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
                    kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh', 'code', 'session')),
                    client_id TEXT,
                    scope TEXT,
                    redirect_uri TEXT,
                    expires_at INTEGER,
                    created_at INTEGER NOT NULL
                );
                CREATE INDEX tokens_by_user ON tokens(user_id);
                CREATE TABLE oauth_clients (
                    id TEXT NOT NULL PRIMARY KEY,
                    secret_hash TEXT NOT NULL,
                    name TEXT NOT NULL,
                    redirect_uri TEXT,
                    created_at INTEGER NOT NULL
                );
                """)
            for builtIn in BuiltInDeviceType.inFirstSchema {
                try insert(builtIn.deviceType, manifest: builtIn.manifest, in: db)
            }
        }
        migrator.registerMigration("v2: a client posts for its owner") { db in
            // A bridge's client_credentials token used to post to any device whose id it was given;
            // now it posts only to its owner's devices, and a client without an owner may not use it.
            try db.execute(sql: "ALTER TABLE oauth_clients ADD COLUMN owner_id TEXT REFERENCES users(id) ON DELETE CASCADE")
        }
        migrator.registerMigration("v3: energy consumed as recorded") { db in
            // Food logs kept whole kcal, so 2000 kJ or 650.5 kcal could not be logged as entered and an
            // imported day drifted from the export's own total. Readings already stored stay as they are.
            try db.execute(
                sql: "UPDATE device_type_fields SET type = 'Double' WHERE dtid = ? AND name = ? AND type = 'Integer'",
                arguments: [BuiltInDeviceType.calorieTracker.deviceType.id, Field.calories])
        }
        migrator.registerMigration("v4: HRV measurements and Welltory callback links") { db in
            // Welltory's results and HRV computed from beats are readings of their own device type.
            try insert(BuiltInDeviceType.hrvMeter.deviceType, manifest: BuiltInDeviceType.hrvMeter.manifest, in: db)
            // One callback link per user: the secret in its path is stored only as its SHA-256, and the
            // device its results go to is fixed when the link is made.
            try db.execute(sql: """
                CREATE TABLE welltory_links (
                    hash TEXT NOT NULL PRIMARY KEY,
                    user_id TEXT NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
                    device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
                    created_at INTEGER NOT NULL
                )
                """)
        }
        migrator.registerMigration("v5: a goal weight") { db in
            // The weight trend projects the day it reaches a goal; profiles saved before have none.
            try db.execute(sql: "ALTER TABLE profiles ADD COLUMN goal_kg REAL")
        }
        migrator.registerMigration("v6: OAuth token families and spent codes") { db in
            // A code and every token issued from it, through each refresh, share a family; a spent code or
            // refresh token is kept (marked spent) until it expires, so presenting it again is recognised as
            // a replay and revokes the whole family (RFC 6749 §4.1.2, OAuth 2.0 Security BCP §4.14).
            try db.execute(sql: """
                ALTER TABLE tokens ADD COLUMN family TEXT;
                ALTER TABLE tokens ADD COLUMN spent_at INTEGER;
                CREATE INDEX tokens_by_family ON tokens(family) WHERE family IS NOT NULL;
                """)
        }
        migrator.registerMigration("v7: user names compared after NFKC and case folding") { db in
            // `name COLLATE NOCASE` folded ASCII only, so "élodie"/"Élodie" and "alice"/"ＡＬＩＣＥ" were two
            // accounts. The key and the look-alike skeleton (`UserNames`) are computed here, not in SQL.
            // Not unique indexes: a store may already hold two names that now fold together, and both
            // accounts keep working; `createUser` checks them inside its write transaction.
            try db.execute(sql: """
                ALTER TABLE users ADD COLUMN name_key TEXT NOT NULL DEFAULT '';
                ALTER TABLE users ADD COLUMN name_skeleton TEXT NOT NULL DEFAULT '';
                """)
            for row in try Row.fetchAll(db, sql: "SELECT id, name FROM users") {
                let name: String = row["name"]
                try db.execute(sql: "UPDATE users SET name_key = ?, name_skeleton = ? WHERE id = ?",
                               arguments: [UserNames.key(name), UserNames.skeleton(name), row["id"] as String])
            }
            try db.execute(sql: """
                CREATE INDEX users_by_name_key ON users(name_key);
                CREATE INDEX users_by_name_skeleton ON users(name_skeleton);
                """)
        }
        migrator.registerMigration("v8: resting heart rate on activity trackers") { db in
            // Apple Health's daily resting heart rate is kept for the insights; a watch's other heart rates stay `heartRate`.
            let tracker = BuiltInDeviceType.activityTracker
            guard let spec = tracker.manifest.field(Field.restingHeartRate) else { return }
            let position = try Int.fetchOne(db, sql: "SELECT coalesce(max(position), -1) + 1 FROM device_type_fields WHERE dtid = ?",
                                            arguments: [tracker.deviceType.id]) ?? 0
            try db.execute(
                sql: "INSERT OR IGNORE INTO device_type_fields (dtid, position, name, type, unit, description) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [tracker.deviceType.id, position, spec.name, spec.type.rawValue, spec.unit, spec.description])
        }
        migrator.registerMigration("v9: per-day sums kept for the insights") { db in
            // Summing a year of a watch's readings from their JSON takes most of a second; a day's sums are
            // kept with the signature of the readings they came from (how many, and the sum of their rowids:
            // readings are only ever added, or removed with their device) and recomputed when it changes.
            // Keyed by the day's bounds in ms, so another time zone's days are simply other rows.
            try db.execute(sql: """
                CREATE TABLE day_totals_cache (
                    uid TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    start INTEGER NOT NULL,
                    stop INTEGER NOT NULL,
                    readings INTEGER NOT NULL,
                    rowid_sum INTEGER NOT NULL,
                    totals TEXT NOT NULL,
                    PRIMARY KEY (uid, start, stop)
                ) WITHOUT ROWID
                """)
        }
        migrator.registerMigration("v10: Exist's API: attribute owners, personal tokens, pushes") { db in
            // An attribute written through `/api/2/` is owned by one client service at a time; its values
            // become readings of a device made for that service (and that device type) on its first acquire,
            // kept when ownership moves away and comes back, so its days are still replaced, not doubled.
            // A personal token is read-only and never expires: only its SHA-256 is kept.
            // `hmon exist push` remembers, per server and user, the value it last sent for each day, so a
            // second run sends only what changed.
            try db.execute(sql: """
                CREATE TABLE exist_owners (
                    uid TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    attribute TEXT NOT NULL,
                    client_id TEXT NOT NULL,
                    service TEXT NOT NULL,
                    device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
                    PRIMARY KEY (uid, attribute)
                ) WITHOUT ROWID;
                CREATE TABLE exist_service_devices (
                    uid TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    client_id TEXT NOT NULL,
                    dtid TEXT NOT NULL,
                    device_id TEXT NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
                    PRIMARY KEY (uid, client_id, dtid)
                ) WITHOUT ROWID;
                CREATE TABLE personal_tokens (
                    id TEXT NOT NULL PRIMARY KEY,
                    hash TEXT NOT NULL UNIQUE,
                    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    label TEXT NOT NULL,
                    scope TEXT NOT NULL,
                    created_at INTEGER NOT NULL
                );
                CREATE TABLE exist_pushed (
                    server TEXT NOT NULL,
                    uid TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    attribute TEXT NOT NULL,
                    day TEXT NOT NULL,
                    value REAL NOT NULL,
                    PRIMARY KEY (server, uid, attribute, day)
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v11: a scale's readings keep their source") { db in
            // An import puts the weigh-ins of every source (Withings, the Health app, a phone) on the person's
            // one scale, and each reading keeps where it came from in this text field.
            let scale = BuiltInDeviceType.withings
            guard let spec = scale.manifest.field(Field.source) else { return }
            let position = try Int.fetchOne(db, sql: "SELECT coalesce(max(position), -1) + 1 FROM device_type_fields WHERE dtid = ?",
                                            arguments: [scale.deviceType.id]) ?? 0
            try db.execute(
                sql: "INSERT OR IGNORE INTO device_type_fields (dtid, position, name, type, unit, description) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [scale.deviceType.id, position, spec.name, spec.type.rawValue, spec.unit, spec.description])
        }
        migrator.registerMigration("v13: a generic scale type") { db in
            // First-run setup gives a person a scale without pretending it is a Withings.
            try insert(BuiltInDeviceType.scale.deviceType, manifest: BuiltInDeviceType.scale.manifest, in: db)
        }
        // v15 is PostgreSQL's own (`PostgresSchema`): a new migration here takes 14, then 16.
        return migrator
    }

    /// The SQL for a field's value when it is a number, NULL otherwise.
    private static func numeric(_ field: String) -> String {
        "CASE WHEN json_type(data, '$.\(field)') IN ('integer', 'real') THEN json_extract(data, '$.\(field)') END"
    }

    static func insert(_ type: DeviceType, manifest: Manifest, in db: Database) throws {
        try db.execute(
            sql: "INSERT INTO device_types (id, name, unique_name, description, latest_version) VALUES (?, ?, ?, ?, ?)",
            arguments: [type.id, type.name, type.uniqueName, type.description, type.latestVersion])
        for (position, field) in manifest.fields.enumerated() {
            try db.execute(
                sql: "INSERT INTO device_type_fields (dtid, position, name, type, unit, description) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [type.id, position, field.name, field.type.rawValue, field.unit, field.description])
        }
    }
}
