import XCTest
@testable import DocLite

/// Math functions: computed as doubles; a non-number
/// or a non-finite result is null.
final class MathFunctionTests: QueryTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try loadProbe()
    }

    func testRoundingRules() throws {
        XCTAssertEqual(try value(of: #"["ROUND()", 12.5]"#), .double(13))
        XCTAssertEqual(try value(of: #"["ROUND_EVEN()", 12.5]"#), .double(12))
        XCTAssertEqual(try value(of: #"["ROUND()", -12.5]"#), .double(-13))
        XCTAssertEqual(try value(of: #"["ROUND_EVEN()", 13.5]"#), .double(14))
        XCTAssertEqual(try value(of: #"["ROUND_EVEN()", -12.125, 2]"#), .double(-12.12))
        XCTAssertEqual(try value(of: #"["ROUND_EVEN()", 8.83, -1]"#), .double(10))
        XCTAssertEqual(try value(of: #"["ROUND()", 1250, -2]"#), .double(1300))
        XCTAssertEqual(try value(of: #"["ROUND_EVEN()", 1250, -2]"#), .double(1200))
        XCTAssertEqual(try value(of: #"["ROUND()", 1234.5678, 2]"#), .double(1234.57))
        XCTAssertEqual(try value(of: #"["ROUND()", 2.5, 400]"#), .double(2.5))   // no digit that far
        XCTAssertEqual(try value(of: #"["TRUNC()", -2.7]"#), .double(-2))
        XCTAssertEqual(try value(of: #"["TRUNC()", 3.14159, 3]"#), .double(3.141))
        XCTAssertEqual(try value(of: #"["TRUNC()", 1789, -2]"#), .double(1700))
        XCTAssertEqual(try value(of: #"["ROUND()", [".s"]]"#), .null)
        XCTAssertEqual(try value(of: #"["ROUND()", 1.5, "x"]"#), .null)
        XCTAssertEqual(try value(of: #"["ROUND()", [".missing"], 1]"#), nil)
    }

    func testDivisionAndIntegerDivision() throws {
        XCTAssertEqual(try value(of: #"["DIV()", 7, 2]"#), .double(3.5))
        XCTAssertEqual(try value(of: #"["DIV()", 1, 0]"#), .null)
        XCTAssertEqual(try value(of: #"["IDIV()", 7, 2]"#), .int(3))
        XCTAssertEqual(try value(of: #"["IDIV()", -7, 2]"#), .int(-3))          // truncating
        XCTAssertEqual(try value(of: #"["IDIV()", -3.9, 2.1]"#), .int(-1))      // both operands truncated first
        XCTAssertEqual(try value(of: #"["IDIV()", 1, 0.99]"#), .null)           // 1 / 0
        XCTAssertEqual(try value(of: #"["IDIV()", -9223372036854775808, -1]"#), .null)   // overflow
        XCTAssertEqual(try value(of: #"["IDIV()", 1e300, 2]"#), .null)          // no integer
        XCTAssertEqual(try value(of: #"["IDIV()", [".s"], 2]"#), .null)
        XCTAssertEqual(try value(of: #"["DIV()", [".nul"], 2]"#), .null)
        XCTAssertEqual(try value(of: #"["IDIV()", 4, [".missing"]]"#), nil)
    }

    func testFunctionsOfOneNumber() throws {
        XCTAssertEqual(try value(of: #"["ABS()", -2]"#), .double(2))
        XCTAssertEqual(try value(of: #"["CEIL()", 1.2]"#), .double(2))
        XCTAssertEqual(try value(of: #"["FLOOR()", -1.2]"#), .double(-2))
        XCTAssertEqual(try value(of: #"["LOG()", 1000]"#), .double(3))
        XCTAssertEqual(try value(of: #"["LN()", ["E()"]]"#), .double(1))
        XCTAssertEqual(try value(of: #"["EXP()", 0]"#), .double(1))
        XCTAssertEqual(try value(of: #"["SQRT()", 16]"#), .double(4))
        XCTAssertEqual(try value(of: #"["DEGREES()", ["PI()"]]"#), .double(180))
        XCTAssertEqual(try value(of: #"["RADIANS()", 180]"#), .double(Double.pi))
        XCTAssertEqual(try value(of: #"["COS()", 0]"#), .double(1))
        XCTAssertEqual(try value(of: #"["ATAN()", 1]"#), .double(Double.pi / 4))
        XCTAssertEqual(try value(of: #"["CEIL()", [".t"]]"#), .double(1))        // a boolean is 0 or 1
        XCTAssertEqual(try value(of: #"["ACOS()", 3]"#), .null)                   // NaN
        XCTAssertEqual(try value(of: #"["ACOS()", "abc"]"#), .null)
        XCTAssertEqual(try value(of: #"["SQRT()", -1]"#), .null)
        XCTAssertEqual(try value(of: #"["LN()", 0]"#), .null)                     // -infinity
        XCTAssertEqual(try value(of: #"["ABS()", [".a"]]"#), .null)
        XCTAssertEqual(try value(of: #"["SIN()", [".nul"]]"#), .null)
        XCTAssertEqual(try value(of: #"["TAN()", [".missing"]]"#), nil)
        XCTAssertEqual(try value(of: #"["E()"]"#), .double(M_E))
        XCTAssertEqual(try value(of: #"["PI()"]"#), .double(Double.pi))
    }

    func testSignAtan2AndPowerRejectNonNumbers() throws {
        XCTAssertEqual(try value(of: #"["SIGN()", -3.5]"#), .int(-1))
        XCTAssertEqual(try value(of: #"["SIGN()", 0]"#), .int(0))
        XCTAssertEqual(try value(of: #"["SIGN()", [".n"]]"#), .int(1))
        XCTAssertEqual(try value(of: #"["POWER()", 2, 10]"#), .double(1024))
        XCTAssertEqual(try value(of: #"["POWER()", 0, -1]"#), .null)             // infinity
        XCTAssertEqual(try value(of: #"["ATAN2()", 1, 1]"#), .double(Double.pi / 4))
        XCTAssertEqual(try value(of: #"["POWER()", [".nul"], 2]"#), .null)
        XCTAssertEqual(try value(of: #"["SIGN()", [".missing"]]"#), nil)
        for call in [#"["SIGN()", [".s"]]"#, #"["POWER()", 2, [".a"]]"#, #"["ATAN2()", "y", 1]"#] {
            assertThrows(.invalidQuery, containing: "Invalid numeric value") { _ = try self.value(of: call) }
        }
    }

    func testArityIsCheckedAtCompileTime() throws {
        assertThrows(.invalidQuery, containing: "WHAT[0]: pi() takes no arguments, got 1") {
            _ = try self.db.createQuery(json: #"{"WHAT": [["PI()", 1]]}"#)
        }
        assertThrows(.invalidQuery, containing: "WHERE[1]: round() takes 1 or 2 arguments, got 3") {
            _ = try self.db.createQuery(json: #"{"WHERE": ["=", ["ROUND()", 1, 2, 3], 1]}"#)
        }
    }
}
