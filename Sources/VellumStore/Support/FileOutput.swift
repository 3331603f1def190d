import Foundation

/// Text written to a file descriptor through a 64 KiB buffer: output flows out
/// as it is produced (memory stays flat however much is written). Used for the
/// temporary files of `SafeFileWriter` and for streaming standard output.
package struct FileOutput {
    package let descriptor: Int32
    /// The name used in errors.
    package let name: String
    private var buffer: [UInt8] = []
    package static let bufferSize = 1 << 16

    package init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
        buffer.reserveCapacity(Self.bufferSize)
    }

    package mutating func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.bufferSize { try flush() }
    }

    /// Writes out what is buffered (retrying short writes and EINTR).
    package mutating func flush() throws {
        var offset = 0
        try buffer.withUnsafeBytes { bytes in
            while offset < bytes.count {
                let n = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw FileWriteError.io(path: name, detail: FileWriteError.lastErrno)
                }
                offset += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
