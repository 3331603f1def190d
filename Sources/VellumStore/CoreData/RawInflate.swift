import CZlib
import Foundation

/// Inflates raw DEFLATE data (no zlib header or checksum), as Core Data stores its
/// model cache, with the system zlib.
enum RawInflate {
    /// The inflated bytes. `what` names the data in errors; `limit` bounds the output so a
    /// hostile input cannot exhaust memory.
    static func inflate(_ input: Data, what: String, limit: Int = 256 << 20) throws(StoreError) -> Data {
        var stream = z_stream()
        // Window bits -15: raw DEFLATE.
        var rc = inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard rc == Z_OK else { throw .malformedCoreData(what: what, offset: nil, reason: "zlib could not start (code \(rc))") }
        defer { inflateEnd(&stream) }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let bytes = [UInt8](input)
        rc = bytes.withUnsafeBufferPointer { inBuf -> Int32 in
            stream.next_in = UnsafeMutablePointer(mutating: inBuf.baseAddress)
            stream.avail_in = uInt(inBuf.count)
            var status: Int32 = Z_OK
            while status == Z_OK {
                status = chunk.withUnsafeMutableBufferPointer { outBuf -> Int32 in
                    stream.next_out = outBuf.baseAddress
                    stream.avail_out = uInt(outBuf.count)
                    let r = CZlib.inflate(&stream, Z_NO_FLUSH)
                    output.append(outBuf.baseAddress!, count: outBuf.count - Int(stream.avail_out))
                    return r
                }
                if output.count > limit { return Z_MEM_ERROR }
                // No progress with input exhausted: the stream is truncated.
                if status == Z_OK && stream.avail_in == 0 && stream.avail_out != 0 { return Z_BUF_ERROR }
            }
            return status
        }
        guard rc == Z_STREAM_END else {
            let offset = Int(stream.total_in)
            let reason: String
            switch rc {
            case Z_BUF_ERROR: reason = "the compressed data ends early"
            case Z_MEM_ERROR: reason = output.count > limit ? "inflates to more than \(limit) bytes" : "out of memory"
            default: reason = stream.msg.map { "not raw DEFLATE data (\(String(cString: $0)))" } ?? "not raw DEFLATE data (zlib code \(rc))"
            }
            throw .malformedCoreData(what: what, offset: offset, reason: reason)
        }
        return output
    }
}
