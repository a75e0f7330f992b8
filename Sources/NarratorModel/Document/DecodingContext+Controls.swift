import NarratorBase

/// The structured properties of a control: a declarative adjustable value, a representation, rotors.
extension DecodingContext {
    mutating func adjustable(_ value: JSONValue) -> AdjustableValue? {
        guard case .object(let object) = value else {
            problem("expected an object such as {\"value\": 3, \"min\": 1, \"max\": 5}, got \(value.typeName)")
            return nil
        }
        var result = AdjustableValue(value: 0)
        var hasValue = false
        var ok = true
        for member in distinctMembers(object) {
            path.append(.key(member.key))
            defer { path.removeLast() }
            switch member.key {
            case "value":
                hasValue = true
                if let n = number(member.value) { result.value = n } else { ok = false }
            case "min": if member.value.isNull { result.min = nil } else if let n = number(member.value) { result.min = n } else { ok = false }
            case "max": if member.value.isNull { result.max = nil } else if let n = number(member.value) { result.max = n } else { ok = false }
            case "step":
                guard let n = number(member.value) else { ok = false; continue }
                if n <= 0 {
                    problem("step must be greater than 0, got \(JSONWriter.format(n))")
                    ok = false
                } else {
                    result.step = n
                }
            case "format":
                guard let name = string(member.value) else { ok = false; continue }
                if let format = ValueFormat(name: name) {
                    result.format = format
                } else {
                    ok = false
                    problem(
                        "unknown format \"\(name)\"; expected number, percent, time, or a template containing {value}"
                            + Suggestion.hint(for: name, in: ["number", "percent", "time"]))
                }
            default:
                problem("unknown key" + Suggestion.hint(for: member.key, in: TreeDocumentDecoder.adjustableKeys))
            }
        }
        if !hasValue {
            problem("missing \"value\"")
            return nil
        }
        guard ok else { return nil }
        if let min = result.min, let max = result.max {
            if min > max {
                problem("min (\(JSONWriter.format(min))) is greater than max (\(JSONWriter.format(max)))")
                return nil
            }
            if result.value < min || result.value > max {
                at("value") {
                    $0.problem(
                        "\(JSONWriter.format(result.value)) is outside \(JSONWriter.format(min))...\(JSONWriter.format(max))")
                }
                return nil
            }
        }
        if result.format == .percent, result.min == nil || result.max == nil {
            at("format") { $0.problem("percent needs both \"min\" and \"max\"") }
            return nil
        }
        return result
    }

    mutating func representation(_ value: JSONValue) -> Representation? {
        guard case .object(let object) = value else {
            problem("expected an object such as {\"control\": \"slider\", ...}, got \(value.typeName)")
            return nil
        }
        var control: Representation.Control?
        var result = Representation(control: .button)
        for member in distinctMembers(object) {
            path.append(.key(member.key))
            defer { path.removeLast() }
            switch member.key {
            case "control":
                guard let name = string(member.value) else { continue }
                control = Representation.Control(rawValue: name)
                if control == nil {
                    problem(unknownName(name, kind: "control", in: Representation.Control.allCases.map(\.rawValue)))
                }
            case "label": result.label = optionalString(member.value)
            case "value": result.value = optionalString(member.value)
            case "isOn": result.isOn = member.value.isNull ? nil : bool(member.value)
            case "adjustable": result.adjustable = member.value.isNull ? nil : adjustable(member.value)
            default:
                problem("unknown key" + Suggestion.hint(for: member.key, in: TreeDocumentDecoder.representationKeys))
            }
        }
        guard let control else {
            if object["control"] == nil { problem("missing \"control\" (slider, stepper, button, toggle or link)") }
            return nil
        }
        result.control = control
        if result.isOn != nil, control != .toggle {
            at("isOn") { $0.problem("only a toggle has \"isOn\"; this is a \(control.rawValue)") }
        }
        if result.adjustable != nil, control != .slider && control != .stepper {
            at("adjustable") { $0.problem("only a slider or stepper is adjustable; this is a \(control.rawValue)") }
        }
        return result
    }

    mutating func rotors(_ value: JSONValue) -> [CustomRotor] {
        guard case .array(let items) = value else {
            problem("expected an array of rotors, got \(value.typeName)")
            return []
        }
        var rotors: [CustomRotor] = []
        for (index, item) in items.enumerated() {
            path.append(.index(index))
            defer { path.removeLast() }
            guard case .object(let object) = item else {
                problem("expected a rotor such as {\"name\": \"Unread\", \"targets\": [...]}, got \(item.typeName)")
                continue
            }
            var name: String?
            var targets: [String] = []
            for member in distinctMembers(object) {
                path.append(.key(member.key))
                defer { path.removeLast() }
                switch member.key {
                case "name": name = identifier(member.value, what: "rotor name")
                case "targets":
                    guard case .array(let ids) = member.value else {
                        problem("expected an array of element ids, got \(member.value.typeName)")
                        continue
                    }
                    var seen: [String: Int] = [:]
                    for (i, id) in ids.enumerated() {
                        path.append(.index(i))
                        if let target = identifier(id, what: "target id") {
                            // Targets are visited in reading order, once each: a repeat would be the
                            // only way to write a loop, so it is refused rather than skipped.
                            if let first = seen[target] {
                                problem("target \"\(target)\" listed twice (also at index \(first))")
                            } else {
                                seen[target] = i
                                targets.append(target)
                            }
                        }
                        path.removeLast()
                    }
                default:
                    problem("unknown key" + Suggestion.hint(for: member.key, in: TreeDocumentDecoder.rotorKeys))
                }
            }
            guard let name else {
                if object["name"] == nil { problem("missing \"name\"") }
                continue
            }
            if rotors.contains(where: { $0.name == name }) {
                at("name") { $0.problem("rotor \"\(name)\" defined twice on this node") }
                continue
            }
            rotors.append(CustomRotor(name: name, targets: targets))
        }
        return rotors
    }
}
