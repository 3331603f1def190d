import Foundation

/// The binary Unicode properties `\p{…}` names that Swift's `Unicode.Scalar.Properties`
/// computes, so memory, SQLite and PostgreSQL (which gets them as code-point ranges,
/// `RegexScalarSet`) read one table. Raw values are the long names; `aliases` the short ones.
enum RegexBinaryProperty: String, CaseIterable, Sendable, Hashable {
    case alphabetic = "Alphabetic", asciiHexDigit = "ASCII_Hex_Digit", bidiControl = "Bidi_Control"
    case bidiMirrored = "Bidi_Mirrored", cased = "Cased", caseIgnorable = "Case_Ignorable"
    case changesWhenCasefolded = "Changes_When_Casefolded", changesWhenCasemapped = "Changes_When_Casemapped"
    case changesWhenLowercased = "Changes_When_Lowercased", changesWhenNFKCCasefolded = "Changes_When_NFKC_Casefolded"
    case changesWhenTitlecased = "Changes_When_Titlecased", changesWhenUppercased = "Changes_When_Uppercased"
    case dash = "Dash", defaultIgnorableCodePoint = "Default_Ignorable_Code_Point", deprecated = "Deprecated"
    case diacritic = "Diacritic", emoji = "Emoji", emojiModifier = "Emoji_Modifier"
    case emojiModifierBase = "Emoji_Modifier_Base", emojiPresentation = "Emoji_Presentation", extender = "Extender"
    case fullCompositionExclusion = "Full_Composition_Exclusion", graphemeBase = "Grapheme_Base"
    case graphemeExtend = "Grapheme_Extend", hexDigit = "Hex_Digit", idContinue = "ID_Continue", idStart = "ID_Start"
    case ideographic = "Ideographic", idsBinaryOperator = "IDS_Binary_Operator", idsTrinaryOperator = "IDS_Trinary_Operator"
    case joinControl = "Join_Control", logicalOrderException = "Logical_Order_Exception", lowercase = "Lowercase"
    case math = "Math", noncharacterCodePoint = "Noncharacter_Code_Point", patternSyntax = "Pattern_Syntax"
    case patternWhiteSpace = "Pattern_White_Space", quotationMark = "Quotation_Mark", radical = "Radical"
    case sentenceTerminal = "Sentence_Terminal", softDotted = "Soft_Dotted", terminalPunctuation = "Terminal_Punctuation"
    case unifiedIdeograph = "Unified_Ideograph", uppercase = "Uppercase", variationSelector = "Variation_Selector"
    case whiteSpace = "White_Space", xidContinue = "XID_Continue", xidStart = "XID_Start"

    /// Unicode's short names (PropertyAliases.txt).
    var aliases: [String] {
        switch self {
        case .alphabetic: return ["Alpha"]
        case .asciiHexDigit: return ["AHex"]
        case .bidiControl: return ["Bidi_C"]
        case .bidiMirrored: return ["Bidi_M"]
        case .caseIgnorable: return ["CI"]
        case .changesWhenCasefolded: return ["CWCF"]
        case .changesWhenCasemapped: return ["CWCM"]
        case .changesWhenLowercased: return ["CWL"]
        case .changesWhenNFKCCasefolded: return ["CWKCF"]
        case .changesWhenTitlecased: return ["CWT"]
        case .changesWhenUppercased: return ["CWU"]
        case .defaultIgnorableCodePoint: return ["DI"]
        case .deprecated: return ["Dep"]
        case .diacritic: return ["Dia"]
        case .emojiModifier: return ["EMod"]
        case .emojiModifierBase: return ["EBase"]
        case .emojiPresentation: return ["EPres"]
        case .extender: return ["Ext"]
        case .fullCompositionExclusion: return ["Comp_Ex"]
        case .graphemeBase: return ["Gr_Base"]
        case .graphemeExtend: return ["Gr_Ext"]
        case .hexDigit: return ["Hex"]
        case .idContinue: return ["IDC"]
        case .idStart: return ["IDS"]
        case .ideographic: return ["Ideo"]
        case .idsBinaryOperator: return ["IDSB"]
        case .idsTrinaryOperator: return ["IDST"]
        case .joinControl: return ["Join_C"]
        case .logicalOrderException: return ["LOE"]
        case .lowercase: return ["Lower"]
        case .noncharacterCodePoint: return ["NChar"]
        case .patternSyntax: return ["Pat_Syn"]
        case .patternWhiteSpace: return ["Pat_WS"]
        case .quotationMark: return ["QMark"]
        case .sentenceTerminal: return ["STerm"]
        case .softDotted: return ["SD"]
        case .terminalPunctuation: return ["Term"]
        case .unifiedIdeograph: return ["UIdeo"]
        case .uppercase: return ["Upper"]
        case .variationSelector: return ["VS"]
        case .whiteSpace: return ["WSpace", "space"]
        case .xidContinue: return ["XIDC"]
        case .xidStart: return ["XIDS"]
        case .cased, .dash, .emoji, .math, .radical: return []
        }
    }

    /// Every name and alias, loosely matched (lowercase, no `_`, `-` or spaces), as ICU matches them.
    static let named: [String: RegexBinaryProperty] = {
        var out: [String: RegexBinaryProperty] = [:]
        for p in allCases {
            for name in [p.rawValue] + p.aliases { out[name.lowercased().filter { $0 != "_" }] = p }
        }
        return out
    }()

    func holds(_ p: Unicode.Scalar.Properties) -> Bool {
        switch self {
        case .alphabetic: return p.isAlphabetic
        case .asciiHexDigit: return p.isASCIIHexDigit
        case .bidiControl: return p.isBidiControl
        case .bidiMirrored: return p.isBidiMirrored
        case .cased: return p.isCased
        case .caseIgnorable: return p.isCaseIgnorable
        case .changesWhenCasefolded: return p.changesWhenCaseFolded
        case .changesWhenCasemapped: return p.changesWhenCaseMapped
        case .changesWhenLowercased: return p.changesWhenLowercased
        case .changesWhenNFKCCasefolded: return p.changesWhenNFKCCaseFolded
        case .changesWhenTitlecased: return p.changesWhenTitlecased
        case .changesWhenUppercased: return p.changesWhenUppercased
        case .dash: return p.isDash
        case .defaultIgnorableCodePoint: return p.isDefaultIgnorableCodePoint
        case .deprecated: return p.isDeprecated
        case .diacritic: return p.isDiacritic
        case .emoji: return p.isEmoji
        case .emojiModifier: return p.isEmojiModifier
        case .emojiModifierBase: return p.isEmojiModifierBase
        case .emojiPresentation: return p.isEmojiPresentation
        case .extender: return p.isExtender
        case .fullCompositionExclusion: return p.isFullCompositionExclusion
        case .graphemeBase: return p.isGraphemeBase
        case .graphemeExtend: return p.isGraphemeExtend
        case .hexDigit: return p.isHexDigit
        case .idContinue: return p.isIDContinue
        case .idStart: return p.isIDStart
        case .ideographic: return p.isIdeographic
        case .idsBinaryOperator: return p.isIDSBinaryOperator
        case .idsTrinaryOperator: return p.isIDSTrinaryOperator
        case .joinControl: return p.isJoinControl
        case .logicalOrderException: return p.isLogicalOrderException
        case .lowercase: return p.isLowercase
        case .math: return p.isMath
        case .noncharacterCodePoint: return p.isNoncharacterCodePoint
        case .patternSyntax: return p.isPatternSyntax
        case .patternWhiteSpace: return p.isPatternWhitespace
        case .quotationMark: return p.isQuotationMark
        case .radical: return p.isRadical
        case .sentenceTerminal: return p.isSentenceTerminal
        case .softDotted: return p.isSoftDotted
        case .terminalPunctuation: return p.isTerminalPunctuation
        case .unifiedIdeograph: return p.isUnifiedIdeograph
        case .uppercase: return p.isUppercase
        case .variationSelector: return p.isVariationSelector
        case .whiteSpace: return p.isWhitespace
        case .xidContinue: return p.isXIDContinue
        case .xidStart: return p.isXIDStart
        }
    }
}
