// libFuzzer entry for the history layer's untrusted-input paths (the event/record decoder of
// `HistoryCodec`, generic and typed), compiled with the ListState + ListHistory sources by
// Tools/fuzz/run-history. The first input byte picks the target:
//   0: a record payload decoded as commit / head move / checkpoint by the generic codec
//   1: a bare event stream (`decodeEvents`) by the generic codec
//   2: a sequence of records (length-prefixed) replayed into a store (decode + verified apply)
import ListHistory
import ListState

struct FuzzText: ListElement, Codable, Hashable, Sendable {
  var id: String
  var content: String
}

@_cdecl("LLVMFuzzerTestOneInput")
public func historyFuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size > 1 else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
  switch data[0] % 3 {
  case 0:
    for kind in [HistoryRecord.Kind.commit, .headMove, .checkpoint] {
      var codec = HistoryCodec<JournalValueElement, JournalValueElement>.generic()
      _ = try? codec.decode(HistoryRecord(kind: kind, sequence: 1, version: UInt64(bytes.first ?? 1), payload: bytes))
      var typed = HistoryCodec<FuzzText, FuzzText>()
      _ = try? typed.decode(HistoryRecord(kind: kind, sequence: 1, version: UInt64(bytes.first ?? 1), payload: bytes))
    }
  case 1:
    var codec = HistoryCodec<JournalValueElement, JournalValueElement>.generic()
    _ = try? codec.decodeEvents(bytes)
  default:
    // [kind, version, length(2), payload...]*
    var records: [HistoryRecord] = []
    var offset = 0
    while offset + 4 <= bytes.count, records.count < 64 {
      let kind = HistoryRecord.Kind(rawValue: bytes[offset] % 3 + 1)!
      let version = UInt64(bytes[offset + 1])
      let length = min(Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]), bytes.count - offset - 4)
      records.append(
        HistoryRecord(kind: kind, sequence: UInt64(records.count + 1), version: version, payload: Array(bytes[(offset + 4)..<(offset + 4 + length)])))
      offset += 4 + length
    }
    _ = try? ListStore<JournalValueElement, JournalValueElement>(replaying: records, codec: .generic())
  }
  return 0
}
