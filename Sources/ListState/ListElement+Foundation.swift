#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension UUID: ListElement { @inlinable public var id: UUID { self } }
