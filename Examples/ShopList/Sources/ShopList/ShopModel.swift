import Foundation
import VellumStore

/// The guide builds this model with `ModelBuilder` (section 2); here it ships as the
/// resource Shop.vellum.json, the same entities in the JSON model format.
func shopModel() throws -> ManagedObjectModel {
    guard let url = Bundle.module.url(forResource: "Shop.vellum", withExtension: "json") else {
        throw StoreError.invalidOperation("Shop.vellum.json is missing from the bundle")
    }
    return try ModelLoader.load(from: url)
}
