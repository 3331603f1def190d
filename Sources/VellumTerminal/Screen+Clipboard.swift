import Foundation

extension Screen {
    /// Puts `text` on the terminal's clipboard with OSC 52 (xterm, kitty, iTerm2,
    /// tmux with `set-clipboard on`); a terminal that does not allow it ignores it.
    public func copyToClipboard(_ text: String) {
        guard active else { return }
        let bytes = Array(Self.osc52(text).utf8)
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let n = write(STDOUT_FILENO, base + offset, buffer.count - offset)
                if n <= 0 { if errno == EINTR { continue }; return }
                offset += n
            }
        }
    }

    /// The OSC 52 sequence setting the clipboard (`c`) to `text`.
    public static func osc52(_ text: String) -> String {
        "\u{1B}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{07}"
    }
}
