import Testing
@testable import vellum

@Suite("Argument parser")
struct ArgumentsTests {
    let spec = ArgumentSpec(flags: ["json", "help"], options: ["model", "limit"])

    @Test func positionalsKeepTheirOrder() throws {
        let p = try ArgumentParser.parse(["a", "b", "c"], spec: spec)
        #expect(p.positionals == ["a", "b", "c"])
        #expect(p.flags.isEmpty)
        #expect(p.options.isEmpty)
    }

    @Test func flagsAndOptionsMixWithPositionals() throws {
        let p = try ArgumentParser.parse(["store.db", "--json", "--model", "m.json", "extra"], spec: spec)
        #expect(p.positionals == ["store.db", "extra"])
        #expect(p.has("json"))
        #expect(p.option("model") == "m.json")
    }

    @Test func optionWithEqualsSign() throws {
        let p = try ArgumentParser.parse(["--model=path/with=sign.json", "--limit="], spec: spec)
        #expect(p.option("model") == "path/with=sign.json")
        #expect(p.option("limit") == "")
    }

    @Test func optionValueMayStartWithADash() throws {
        let p = try ArgumentParser.parse(["--limit", "-5"], spec: spec)
        #expect(p.option("limit") == "-5")
    }

    @Test func lastOptionWins() throws {
        let p = try ArgumentParser.parse(["--limit", "1", "--limit=2"], spec: spec)
        #expect(p.option("limit") == "2")
    }

    @Test func doubleDashEndsOptions() throws {
        let p = try ArgumentParser.parse(["--json", "--", "--model", "-x"], spec: spec)
        #expect(p.positionals == ["--model", "-x"])
        #expect(p.option("model") == nil)
    }

    @Test func singleDashIsPositional() throws {
        #expect(try ArgumentParser.parse(["-"], spec: spec).positionals == ["-"])
    }

    @Test func shortHelp() throws {
        #expect(try ArgumentParser.parse(["-h"], spec: spec).has("help"))
    }

    @Test func unknownOptionIsNamed() {
        #expect(throws: ArgumentError.unknownOption("--verbose")) {
            try ArgumentParser.parse(["x", "--verbose"], spec: spec)
        }
        #expect(throws: ArgumentError.unknownOption("--colour")) {
            try ArgumentParser.parse(["--colour=red"], spec: spec)
        }
        #expect(throws: ArgumentError.unknownOption("-v")) {
            try ArgumentParser.parse(["-v"], spec: spec)
        }
        #expect(ArgumentError.unknownOption("--verbose").description == "unknown option '--verbose'")
    }

    @Test func optionWithoutValue() {
        #expect(throws: ArgumentError.missingValue(option: "model")) {
            try ArgumentParser.parse(["--model"], spec: spec)
        }
    }

    @Test func flagWithValueIsRefused() {
        #expect(throws: ArgumentError.unexpectedValue(flag: "json")) {
            try ArgumentParser.parse(["--json=yes"], spec: spec)
        }
    }

    @Test func requiredPositionals() throws {
        let p = try ArgumentParser.parse(["a"], spec: spec)
        #expect(try p.requirePositionals(["PATH"]) == ["a"])
        #expect(throws: ArgumentError.missingArgument("STORE")) { try p.requirePositionals(["PATH", "STORE"]) }
        #expect(throws: ArgumentError.tooManyArguments(["a"])) { try p.requirePositionals([]) }
    }
}

@MainActor
@Suite("Dispatch (in process)")
struct DispatchTests {
    func run(_ args: [String]) async -> (Int32, String, String) {
        let capture = Console.Capture()
        let code = await VellumCLI.main(args, console: capture.console)
        return (code, capture.out, capture.err)
    }

    @Test func version() async {
        let (code, out, err) = await run(["--version"])
        #expect(code == 0)
        #expect(out == "vellum 0.1.0\n")
        #expect(err.isEmpty)
    }

    @Test func helpListsEveryCommand() async {
        let (code, out, _) = await run(["--help"])
        #expect(code == 0)
        for c in VellumCLI.commands where !c.isHidden { #expect(out.contains(c.name)) }
        #expect(!out.contains("_stress-writer"))
    }

    @Test func helpForACommandTwoWays() async {
        let (c1, o1, _) = await run(["help", "create"])
        let (c2, o2, _) = await run(["create", "--help"])
        #expect(c1 == 0 && c2 == 0)
        #expect(o1 == o2)
        #expect(o1.contains("Usage: vellum create STORE --model PATH"))
    }

    @Test func unknownCommandPrintsUsageAndExits2() async {
        let (code, out, err) = await run(["frobnicate"])
        #expect(code == 2)
        #expect(out.isEmpty)
        #expect(err.hasPrefix("vellum: unknown command 'frobnicate'"))
        #expect(err.contains("Usage:"))
    }

    @Test func noCommandIsAUsageError() async {
        #expect(await run([]).0 == 2)
    }

    @Test func unknownOptionOfACommand() async {
        let (code, _, err) = await run(["model", "x", "--frob"])
        #expect(code == 2)
        #expect(err.contains("vellum: unknown option '--frob'"))
        #expect(err.contains("vellum help model"))
    }

    @Test func missingArguments() async {
        #expect(await run(["model"]).0 == 2)
        #expect(await run(["create", "x.db"]).2.contains("--model"))
        #expect(await run(["create", "x.db"]).0 == 2)
    }

    @Test func commandNamesAreUnique() {
        let names = VellumCLI.commands.map { $0.name }
        #expect(Set(names).count == names.count)
    }
}
