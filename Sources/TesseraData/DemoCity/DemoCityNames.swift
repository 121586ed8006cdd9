import TesseraNumbers

/// Word lists the demo city draws names from.
enum DemoCityNames {
  static let streets = [
    "Oak", "Maple", "Cedar", "Elm", "Pine", "Birch", "Willow", "Chestnut", "Linden", "Poplar", "Ash", "Hawthorn",
    "Magnolia", "Juniper", "Sycamore", "Alder", "Laurel", "Olive", "Cypress", "Rowan", "Hazel", "Spruce", "Walnut",
    "Holly",
  ]
  static let streetKinds = ["Street", "Road", "Lane", "Way"]
  static let avenues = [
    "Harbour", "Market", "Cathedral", "University", "Garden", "Riverside", "Station", "Museum", "Theatre", "Parliament",
    "Observatory", "Lighthouse",
  ]
  static let cities = [
    "Tesselburg", "Port Meridian", "Vallombrosa", "Castelnuovo", "Saint-Aubin", "Lindenhafen", "Nova Ripa",
    "Belmonte", "Kingsbridge", "Aurelia",
  ]
  static let districts = [
    "Old Town", "Harbourside", "Northgate", "Riverbend", "Hilltop", "Marina", "Southfield", "Eastwick", "Westend",
    "Parkview", "Ironworks", "Greenhill", "Lakeside", "Fairmount", "Brookside", "Stonebridge",
  ]
  static let pois: [(poiClass: String, subclass: String, names: [String])] = [
    ("cafe", "cafe", ["Café Central", "Blue Cup", "Morning Bell", "The Roastery"]),
    ("restaurant", "restaurant", ["Trattoria Sole", "The Green Table", "Le Petit Port", "Golden Dragon"]),
    ("shop", "bakery", ["Crust & Crumb", "Daily Bread"]),
    ("grocery", "supermarket", ["FreshMart", "Corner Grocer"]),
    ("school", "school", ["Northgate School", "Lakeside Academy"]),
    ("hospital", "hospital", ["City Hospital"]),
    ("park", "playground", ["Sunny Playground"]),
    ("museum", "museum", ["Museum of Maps", "Harbour Museum"]),
    ("bank", "bank", ["Meridian Bank"]),
    ("pharmacy", "pharmacy", ["Green Cross Pharmacy"]),
  ]

  /// An ordinal: 1st, 2nd, 3rd, 4th, … 11th, 12th, 13th, 21st, …
  static func ordinal(_ number: Int) -> String {
    let suffix: String
    switch (number % 10, number % 100) {
    case (_, 11...13): suffix = "th"
    case (1, _): suffix = "st"
    case (2, _): suffix = "nd"
    case (3, _): suffix = "rd"
    default: suffix = "th"
    }
    return "\(number)\(suffix)"
  }
}
