import Testing

@testable import ListJournalCLI

@Suite("List-language tokenizer")
struct ListTokenizerTests {
  private func texts(_ line: String) throws -> [String] {
    try ListTokenizer.tokenize(line).map(\.text)
  }

  @Test func splitsOnSpacesAndTabs() throws {
    #expect(try texts("append  a\tb   c") == ["append", "a", "b", "c"])
    #expect(try texts("   ") == [])
    #expect(try texts("") == [])
  }

  @Test func commentsRunToTheEndOfTheLine() throws {
    #expect(try texts("append a # b c") == ["append", "a"])
    #expect(try texts("# only a comment") == [])
    #expect(try texts("append a#b") == ["append", "a"])
  }

  @Test func quotedTokensKeepSpacesAndHashes() throws {
    let tokens = try ListTokenizer.tokenize(#"set a "hello # world" x"#)
    #expect(tokens.map(\.text) == ["set", "a", "hello # world", "x"])
    #expect(tokens.map(\.isQuoted) == [false, false, true, false])
    #expect(tokens.map(\.column) == [1, 5, 7, 23])
  }

  @Test func escapes() throws {
    #expect(try texts(#"set a "say \"hi\"""#) == ["set", "a", #"say "hi""#])
    #expect(try texts(#"set a "back\\slash""#) == ["set", "a", #"back\slash"#])
    #expect(try texts(#""""#) == [""])
    #expect(try texts(#"set a "two\nlines\r\n\tend""#) == ["set", "a", "two\nlines\r\n\tend"])
  }

  @Test func unicodeAndCarriageReturns() throws {
    #expect(try texts("append café \"naïve één\"\r") == ["append", "café", "naïve één"])
  }

  @Test func unterminatedQuoteNamesItsColumn() {
    #expect(throws: ListLanguageError(column: 8, message: "unterminated quoted token")) {
      try ListTokenizer.tokenize(#"append "abc"#)
    }
    #expect(throws: ListLanguageError(column: 8, message: "unterminated quoted token")) {
      try ListTokenizer.tokenize(#"append "abc\"#)
    }
  }

  @Test func unknownEscapeNamesItsColumn() throws {
    let error = try #require(throws: ListLanguageError.self) { try ListTokenizer.tokenize(#"set a "x\ey""#) }
    #expect(error.column == 9)
    #expect(error.message.contains("unknown escape"))
  }

  @Test func quotesGluedToWordsAreErrors() throws {
    let inside = try #require(throws: ListLanguageError.self) { try ListTokenizer.tokenize(#"append ab"c""#) }
    #expect(inside.column == 10)
    let after = try #require(throws: ListLanguageError.self) { try ListTokenizer.tokenize(#"append "ab"c"#) }
    #expect(after.column == 12)
  }

  @Test func quotedRoundTrips() throws {
    for text in ["plain", "with space", "#hash", #"q"uote"#, #"back\slash"#, "", "tab\there", "ünï", "line\nbreak", "cr\r\nlf"] {
      let written = ListTokenizer.quoted(text)
      #expect(!written.contains("\n") && !written.contains("\r"), "a written token stays on its line: \(written)")
      #expect(try ListTokenizer.tokenize(written).map(\.text) == [text], "\(written)")
    }
    #expect(ListTokenizer.quoted("plain") == "plain")
    #expect(ListTokenizer.quoted("a b") == "\"a b\"")
  }
}
