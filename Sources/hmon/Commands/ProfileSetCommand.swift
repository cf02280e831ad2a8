import ArgumentParser
import HealthCore
import HealthModel
import HMonCommandLine

/// `hmon profile set`: changes only the values given.
struct ProfileSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "set", abstract: "Change the profile.")

    @OptionGroup var store: StoreOptions

    @Option(help: ArgumentHelp("Height in centimetres.", valueName: "cm"), transform: NumberArgument.parse)
    var heightCm: Double?

    @Option(help: ArgumentHelp("Height with its unit: \"5 ft 7 in\", 170 cm, 1.7 m.", valueName: "height"), transform: HeightArgument.parse)
    var height: Double?

    @Option(help: ArgumentHelp("Birth date, YYYY-MM-DD.", valueName: "date"))
    var birthDate: Day?

    @Option(help: "female or male (the BMR formulas differ).")
    var sex: Sex?

    @Option(help: ArgumentHelp("Lean body mass in kg (enables Katch-McArdle).", valueName: "kg"), transform: NumberArgument.parse)
    var leanMassKg: Double?

    @Option(help: "mifflin-st-jeor (default), harris-benedict or katch-mcardle.")
    var bmrFormula: BMRFormulaArgument?

    @Option(help: "Show weights in kg or lb.")
    var unit: MassUnit?

    @Option(help: "Show energy in kcal or kJ.")
    var energyUnit: EnergyUnit?

    @Option(help: ArgumentHelp("Goal weight in kg (the trend projects when it is reached).", valueName: "kg"), transform: NumberArgument.parse)
    var goalKg: Double?

    @Option(help: ArgumentHelp("Goal weight in lb.", valueName: "lb"), transform: NumberArgument.parse)
    var goalLb: Double?

    @Flag(help: "Remove the goal weight.")
    var noGoal = false

    @Option(help: ArgumentHelp("Sleep you need a night, in hours, 3–14 (sleep debt is measured against it; default 8).", valueName: "hours"),
            transform: NumberArgument.parse)
    var sleepNeedHours: Double?

    func validate() throws {
        if heightCm == nil, height == nil, birthDate == nil, sex == nil, leanMassKg == nil, bmrFormula == nil, unit == nil, energyUnit == nil,
           goalKg == nil, goalLb == nil, !noGoal, sleepNeedHours == nil {
            throw ValidationError("nothing to change: pass --height, --height-cm, --birth-date, --sex, --lean-mass-kg, --bmr-formula, --unit, --energy-unit, --goal-kg, --goal-lb, --no-goal or --sleep-need-hours")
        }
        if heightCm != nil, height != nil { throw ValidationError("pass one of --height and --height-cm") }
        if [goalKg != nil, goalLb != nil, noGoal].filter({ $0 }).count > 1 {
            throw ValidationError("pass one of --goal-kg, --goal-lb and --no-goal")
        }
    }

    func run() async throws {
        let opened = try await StoreOpener(store).open(.readWrite)
        var profile = try await opened.service.profile()
        if let heightCm = heightCm ?? height { profile.heightCm = heightCm }
        if let birthDate { profile.birthDate = birthDate }
        if let sex { profile.sex = sex }
        if let leanMassKg { profile.leanMassKg = leanMassKg }
        if let bmrFormula { profile.bmrFormula = bmrFormula.formula }
        if let unit { profile.massUnit = unit }
        if let energyUnit { profile.energyUnit = energyUnit }
        if let goalKg { profile.goalKg = goalKg }
        if let goalLb { profile.goalKg = MassUnit.lb.toKg(goalLb) }
        if noGoal { profile.goalKg = nil }
        if let sleepNeedHours { profile.sleepNeedMinutes = sleepNeedHours * 60 }
        try await opened.service.updateProfile(profile)
        printEscaped(try await ProfileShowCommand.describe(opened))
    }
}
