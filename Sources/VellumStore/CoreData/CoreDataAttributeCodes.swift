import Foundation

/// Core Data's `NSAttributeType` codes and Vellum's attribute types.
enum CoreDataAttributeCodes {
    static let objectID: Int32 = 2000
    static let composite: Int32 = 2100

    /// The Vellum type of a code; nil for codes Vellum cannot represent (composite, unknown).
    static func type(_ code: Int32) -> AttributeType? {
        switch code {
        case 0, objectID: return .undefined
        case 100: return .integer16
        case 200: return .integer32
        case 300: return .integer64
        case 400: return .decimal
        case 500: return .double
        case 600: return .float
        case 700: return .string
        case 800: return .boolean
        case 900: return .date
        case 1000: return .binary
        case 1100: return .uuid
        case 1200: return .uri
        case 1800: return .transformable
        default: return nil
        }
    }

    /// The code of a Vellum type.
    static func code(_ type: AttributeType) -> Int32 {
        switch type {
        case .undefined: return 0
        case .composite: return CoreDataAttributeCodes.composite
        case .integer16: return 100
        case .integer32: return 200
        case .integer64: return 300
        case .decimal: return 400
        case .double: return 500
        case .float: return 600
        case .string: return 700
        case .boolean: return 800
        case .date: return 900
        case .binary: return 1000
        case .uuid: return 1100
        case .uri: return 1200
        case .transformable: return 1800
        }
    }
}
