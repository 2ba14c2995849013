/// Dates in the proleptic Gregorian calendar, without a calendar object.
package enum CivilDate {
    /// Days from 1970-01-01 to `year`-`month`-`day` (Howard Hinnant's `days_from_civil`);
    /// `month` 1...12.
    package static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
