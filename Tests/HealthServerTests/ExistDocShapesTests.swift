import Foundation
import HealthCore
import HealthModel
import TestSupport
import Testing

/// Issue 26, item 2: what a client written for exist.io reads and writes, against Exist's own docs
/// (`hellocodeco/exist-api-docs`, docs/reference/*.md): `update` read back as written, integer attributes
/// refusing fractions, decimals without binary residue, acquire's success items, the simple token.
@Suite struct ExistDocShapesTests {
    /// writing_data.md: `update` sets the day's value. A scale weigh-in of 71.7 the same day must not turn
    /// the written 70.5 into their average; the dashboard still sees both weigh-ins.
    @Test(arguments: StoreEngine.available) func anUpdatedDayReadsBackAsWrittenBesideTheScalesWeighIn(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let token = try await world.rawToken()
            let day = world.today.adding(days: -1)
            try await world.post([Field.weight: .number(71.7)], on: world.aliceScale, daysAgo: 1, hour: 7)
            _ = try await world.post("/api/2/attributes/acquire/", token: token, json: #"[{"name":"weight"}]"#)
            let written = try await world.post("/api/2/attributes/update/", token: token,
                                               json: #"[{"name":"weight","date":"\#(day)","value":70.5}]"#)
            #expect(written.status == 200, "\(written.text)")
            let values = try await world.get("/api/2/attributes/values/?attribute=weight&limit=1&date_max=\(day)", token: token)
            #expect(try values.results.first?["value"] as? Double == 70.5)
            let withValues = try await world.get("/api/2/attributes/with-values/?attributes=weight&days=2&date_max=\(world.today)", token: token)
            let series = try #require(try withValues.results.first?["values"] as? [[String: Any]])
            #expect(series.first { $0["date"] as? String == day.description }?["value"] as? Double == 70.5)
            // The person's own weigh-in stays a reading of their scale, listed by the SAMI routes.
            let scale = try await world.store.lastMessages(deviceID: world.aliceScale.id, userID: world.alice.id, count: 5)
            #expect(scale.map { $0.data[Field.weight] } == [.number(71.7)])
            // A day the client did not write is computed from the person's readings as before.
            try await world.post([Field.weight: .number(72.2)], on: world.aliceScale, daysAgo: 3)
            let other = try await world.get("/api/2/attributes/values/?attribute=weight&limit=1&date_max=\(world.today.adding(days: -3))", token: token)
            #expect(try other.results.first?["value"] as? Double == 72.2)
        }
    }

    /// object_types.md: value_type 0 is an integer; 5000.5 steps is refused with Exist's `validation`.
    @Test func anIntegerAttributeRefusesAFraction() async throws {
        try await ServerWorld.run { world in
            let token = try await world.rawToken()
            let day = world.today.adding(days: -1)
            _ = try await world.post("/api/2/attributes/acquire/", token: token, json: #"[{"name":"steps"}]"#)
            let reply = try await world.post("/api/2/attributes/update/", token: token, json: """
                [{"name":"steps","date":"\(day)","value":5000.5},{"name":"steps","date":"\(day)","value":5000}]
                """)
            #expect(reply.status == 202)
            #expect(reply.failed.first?["error_code"] as? String == "validation")
            #expect((reply.failed.first?["error"] as? String)?.contains("whole number") == true, "\(reply.text)")
            let values = try await world.get("/api/2/attributes/values/?attribute=steps&limit=1&date_max=\(day)", token: token)
            #expect(try values.results.first?["value"] as? Int == 5000)
        }
    }

    /// A decimal comes back as sent: an average of 71.3 and 71.5 is 71.4 (binary arithmetic gives
    /// 71.39999999999999), and 1000 kJ kept as kcal comes back as 1000.
    @Test func decimalsComeBackWithoutBinaryResidue() async throws {
        try await ServerWorld.run { world in
            let token = try await world.rawToken()
            try await world.post([Field.weight: .number(71.3)], on: world.aliceScale, daysAgo: 2, hour: 7)
            try await world.post([Field.weight: .number(71.5)], on: world.aliceScale, daysAgo: 2, hour: 20)
            let day = world.today.adding(days: -2)
            let weight = try await world.get("/api/2/attributes/values/?attribute=weight&limit=1&date_max=\(day)", token: token)
            #expect(weight.text.contains(#""value":71.4"#) && !weight.text.contains("71.39999"), "\(weight.text)")
            _ = try await world.post("/api/2/attributes/acquire/", token: token, json: #"[{"name":"energy"}]"#)
            _ = try await world.post("/api/2/attributes/update/", token: token, json: #"[{"name":"energy","date":"\#(day)","value":1234.5}]"#)
            let energy = try await world.get("/api/2/attributes/values/?attribute=energy&limit=1&date_max=\(day)", token: token)
            #expect(energy.text.contains(#""value":1234.5"#), "\(energy.text)")
        }
    }

    /// attribute_ownership.md: success items are `{"name","active"}`; `success_objects=1` gives whole
    /// attribute objects, owned by the calling client.
    @Test func acquireAnswersNameAndActiveOrWholeObjects() async throws {
        try await ServerWorld.run { world in
            let token = try await world.rawToken()
            let plain = try await world.post("/api/2/attributes/acquire/", token: token, json: #"[{"name":"weight"}]"#)
            #expect(plain.success.count == 1)
            #expect(Set(plain.success.first?.keys ?? [:].keys) == ["name", "active"])
            let whole = try await world.post("/api/2/attributes/acquire/?success_objects=1", token: token, json: #"[{"name":"steps"}]"#)
            let object = try #require(whole.success.first)
            #expect(object["name"] as? String == "steps" && object["value_type"] as? Int == 0)
            #expect((object["group"] as? [String: Any])?["name"] as? String == "activity")
            #expect((object["service"] as? [String: Any])?["name"] as? String == "hmon")
        }
    }

    /// authentication/token.md: `POST /api/1/auth/simple-token/` with the user name and password, form-encoded
    /// as the docs' curl sends them, answers `{"token"}`, a read-only token for `Authorization: Token`.
    @Test func theSimpleTokenReadsAndCannotWrite() async throws {
        try await ServerWorld.run { world in
            for path in ["/api/1/auth/simple-token/", "/api/2/auth/simple-token/"] {
                let reply = try await world.postForm(path, [("username", "alice"), ("password", ServerWorld.password)])
                #expect(reply.status == 200, "\(path): \(reply.text)")
                let token = try #require(try reply.json["token"] as? String)
                let profile = try await world.getWithPersonal("/api/2/accounts/profile/", token: token)
                #expect(try profile.json["username"] as? String == "alice")
                let write = try await world.post("/api/2/attributes/acquire/", json: #"[{"name":"weight"}]"#,
                                                 headers: ["Authorization": "Token \(token)"])
                #expect(write.status == 403)
            }
            let wrong = try await world.postForm("/api/2/auth/simple-token/", [("username", "alice"), ("password", "nope")])
            #expect(wrong.status == 400)
            #expect(try wrong.json["detail"] as? String == "Unable to log in with provided credentials.")
            let missing = try await world.postForm("/api/2/auth/simple-token/", [("username", "alice")])
            #expect(missing.status == 400 && missing.text.contains("password"), "\(missing.text)")
            // The tokens it makes are listed and revocable like any personal token.
            let listed = try await world.store.personalTokens()
            #expect(listed.filter { $0.userName == "alice" && $0.label == "Exist simple token" }.count == 2)
        }
    }
    /// attributes.md: the templates, paged, filtered by group, each `{name,label,group,priority,value_type,
    /// value_type_description}`; only the templates hmon maps to readings (net energy is hmon's own).
    @Test func theTemplatesAreListedAndFilteredByGroup() async throws {
        try await ServerWorld.run { world in
            let token = try await world.rawToken()
            let all = try await world.get("/api/2/attributes/templates/", token: token)
            #expect(all.status == 200, "\(all.text)")
            let names = try all.results.compactMap { $0["name"] as? String }
            #expect(names.contains("weight") && names.contains("steps") && !names.contains("net_energy"))
            #expect(try all.results.allSatisfy {
                Set($0.keys) == ["name", "label", "group", "priority", "value_type", "value_type_description"]
            })
            let activity = try await world.get("/api/2/attributes/templates/?groups=activity", token: token)
            #expect(try activity.results.allSatisfy { ($0["group"] as? [String: Any])?["name"] as? String == "activity" })
            #expect(try activity.results.compactMap { $0["name"] as? String }.contains("steps"))
        }
    }

    /// creating_attributes.md: a templated attribute is created (and owned by the client that asked); a custom
    /// one fails with `validation`, since hmon keeps only what its readings measure.
    @Test func createTakesATemplateAndRefusesACustomAttribute() async throws {
        try await ServerWorld.run { world in
            let token = try await world.rawToken()
            let reply = try await world.post("/api/2/attributes/create/", token: token, json: """
                [{"template":"steps"},{"label":"Coffees","group":"food","value_type":0}]
                """)
            #expect(reply.status == 202, "\(reply.text)")
            #expect(reply.success.first?["template"] as? String == "steps" && reply.success.first?["name"] as? String == "steps")
            #expect(reply.failed.first?["error_code"] as? String == "validation")
            #expect((reply.failed.first?["error"] as? String)?.contains("custom attribute") == true)
            let owned = try await world.get("/api/2/attributes/?owned=true", token: token)
            #expect(try owned.results.compactMap { $0["name"] as? String } == ["steps"])
            let templated = try await world.get("/api/2/attributes/?exclude_custom=true&limit=100", token: token)
            #expect(try templated.results.allSatisfy { $0["template"] is String })
        }
    }
}
