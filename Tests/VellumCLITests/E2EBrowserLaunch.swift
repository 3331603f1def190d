import Testing

extension Tmux {
    /// Starts the browser (`command`) in tmux and goes to `entity`; waits until its rows show.
    static func browser(_ command: String, entity: String, width: Int = 120, height: Int = 40) -> Tmux {
        let t = Tmux(command, width: width, height: height)
        #expect(t.wait(for: "Entities"), "\(t.screen)")
        t.keys(":"); t.type("goto \(entity)"); t.keys("Enter")
        #expect(t.wait(for: "│ \(entity) │ row 1/"), "\(t.screen)")
        return t
    }
}
