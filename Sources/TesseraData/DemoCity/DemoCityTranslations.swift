import TesseraNumbers

/// A name of the demo city: the local (English) name and its translations, written as the
/// OpenMapTiles `name`, `name_en`, `name_int` and `name:xx` properties.
struct DemoCityName: Sendable, Equatable {
  /// The local name.
  var local: String
  /// Language code (`fa`, `ar`, `hi`, `zh`, `ru`) → the name in that language.
  var translations: [String: String]

  /// `extra` followed by the name's feature attributes, in a fixed order (so tiles come out
  /// byte for byte the same).
  func attributes(_ extra: [(String, FeatureValue)]) -> [(String, FeatureValue)] {
    var attributes = extra + [("name", .string(local)), ("name_en", .string(local)), ("name_int", .string(local))]
    for language in DemoCityTranslations.languages {
      if let name = translations[language] { attributes.append(("name:\(language)", .string(name))) }
    }
    return attributes
  }
}

/// The demo city's names in Persian, Arabic, Hindi, Chinese and Russian, so that labels in
/// right-to-left, Indic and CJK scripts can be seen on it (`--language fa`). Each table row
/// holds one English word's translations in the order of ``languages``.
enum DemoCityTranslations {
  /// The languages every name is translated to.
  static let languages = ["fa", "ar", "hi", "zh", "ru"]

  /// A street: a tree name and a kind ("Oak Street").
  static func street(_ base: String, kind: String) -> DemoCityName {
    let b = words(base, in: streetBases)
    let k = words(kind, in: streetKinds)
    return name(
      "\(base) \(kind)", ["\(k[0]) \(b[0])", "\(k[1]) \(b[1])", "\(b[2]) \(k[2])", "\(b[3])\(k[3])", "\(b[4]) \(k[4])"])
  }

  /// The numbered avenue `number` (1 to 16).
  static func avenue(_ number: Int) -> DemoCityName {
    let index = min(max(number, 1), 16) - 1
    return name(
      "\(DemoCityNames.ordinal(number)) Avenue",
      [
        "خیابان \(persianOrdinals[index])", "الجادة \(arabicOrdinals[index])", "\(hindiOrdinals[index]) एवेन्यू",
        "第\(chineseNumbers[index])大道", "\(number)-й проспект",
      ])
  }

  /// A boulevard named after a landmark ("Harbour Boulevard").
  static func boulevard(_ base: String) -> DemoCityName {
    let b = words(base, in: boulevardBases)
    return name(
      "\(base) Boulevard", ["بلوار \(b[0])", "بوليفارد \(b[1])", "\(b[2]) बुलेवार्ड", "\(b[3])大街", "\(b[4]) бульвар"])
  }

  /// The ring motorway.
  static let ringMotorway = name(
    "Ring Motorway", ["بزرگراه کمربندی", "الطريق الدائري السريع", "रिंग एक्सप्रेसवे", "环城高速", "Кольцевая автомагистраль"])

  /// A city.
  static func city(_ english: String) -> DemoCityName { name(english, words(english, in: cities)) }

  /// A district.
  static func district(_ english: String) -> DemoCityName { name(english, words(english, in: districts)) }

  /// The lake of a district ("Lake Marina").
  static func lake(_ district: String) -> DemoCityName {
    let d = words(district, in: districts)
    return name("Lake \(district)", ["دریاچه \(d[0])", "بحيرة \(d[1])", "\(d[2]) झील", "\(d[3])湖", "озеро \(d[4])"])
  }

  // MARK: Tables

  private static func name(_ local: String, _ translated: [String]) -> DemoCityName {
    DemoCityName(local: local, translations: Dictionary(uniqueKeysWithValues: zip(languages, translated)))
  }

  /// The row of `word`, or the word itself in every language when the table lacks it.
  private static func words(_ word: String, in table: [String: [String]]) -> [String] {
    table[word] ?? Array(repeating: word, count: languages.count)
  }

  private static let streetBases: [String: [String]] = [
    "Oak": ["بلوط", "البلوط", "ओक", "橡树", "Дубовая"],
    "Maple": ["افرا", "القيقب", "मेपल", "枫树", "Кленовая"],
    "Cedar": ["سدر", "الأرز", "देवदार", "雪松", "Кедровая"],
    "Elm": ["نارون", "الدردار", "एल्म", "榆树", "Вязовая"],
    "Pine": ["کاج", "الصنوبر", "चीड़", "松树", "Сосновая"],
    "Birch": ["توس", "البتولا", "भोजपत्र", "桦树", "Берёзовая"],
    "Willow": ["بید", "الصفصاف", "विलो", "柳树", "Ивовая"],
    "Chestnut": ["شاه‌بلوط", "الكستناء", "चेस्टनट", "栗树", "Каштановая"],
    "Linden": ["زیزفون", "الزيزفون", "लिंडेन", "椴树", "Липовая"],
    "Poplar": ["سپیدار", "الحور", "पॉपलर", "杨树", "Тополиная"],
    "Ash": ["زبان‌گنجشک", "المران", "ऐश", "白蜡", "Ясеневая"],
    "Hawthorn": ["زالزالک", "الزعرور", "हॉथॉर्न", "山楂", "Боярышниковая"],
    "Magnolia": ["ماگنولیا", "الماغنوليا", "मैगनोलिया", "玉兰", "Магнолиевая"],
    "Juniper": ["سرو کوهی", "العرعر", "जुनिपर", "桧柏", "Можжевеловая"],
    "Sycamore": ["چنار", "الجميز", "साइकैमोर", "梧桐", "Платановая"],
    "Alder": ["توسکا", "النغت", "एल्डर", "桤木", "Ольховая"],
    "Laurel": ["برگ‌بو", "الغار", "लॉरेल", "月桂", "Лавровая"],
    "Olive": ["زیتون", "الزيتون", "जैतून", "橄榄", "Оливковая"],
    "Cypress": ["سرو", "السرو", "सरू", "柏树", "Кипарисовая"],
    "Rowan": ["بارانک", "الغبيراء", "रोवन", "花楸", "Рябиновая"],
    "Hazel": ["فندق", "البندق", "हेज़ल", "榛树", "Лещинная"],
    "Spruce": ["نوئل", "التنوب", "स्प्रूस", "云杉", "Еловая"],
    "Walnut": ["گردو", "الجوز", "अखरोट", "胡桃", "Ореховая"],
    "Holly": ["خاس", "البهشية", "होली", "冬青", "Падубовая"],
  ]

  private static let streetKinds: [String: [String]] = [
    "Street": ["خیابان", "شارع", "मार्ग", "街", "улица"],
    "Road": ["جاده", "طريق", "रोड", "路", "дорога"],
    "Lane": ["کوچه", "زقاق", "गली", "巷", "аллея"],
    "Way": ["راه", "درب", "पथ", "道", "линия"],
  ]

  private static let boulevardBases: [String: [String]] = [
    "Harbour": ["بندر", "الميناء", "बंदरगाह", "港口", "Портовый"],
    "Market": ["بازار", "السوق", "बाज़ार", "市场", "Рыночный"],
    "Cathedral": ["کلیسای جامع", "الكاتدرائية", "कैथेड्रल", "大教堂", "Соборный"],
    "University": ["دانشگاه", "الجامعة", "विश्वविद्यालय", "大学", "Университетский"],
    "Garden": ["باغ", "الحديقة", "उद्यान", "花园", "Садовый"],
    "Riverside": ["کنار رود", "النهر", "नदी तट", "河滨", "Приречный"],
    "Station": ["ایستگاه", "المحطة", "स्टेशन", "车站", "Вокзальный"],
    "Museum": ["موزه", "المتحف", "संग्रहालय", "博物馆", "Музейный"],
    "Theatre": ["تئاتر", "المسرح", "रंगमंच", "剧院", "Театральный"],
    "Parliament": ["مجلس", "البرلمان", "संसद", "议会", "Парламентский"],
    "Observatory": ["رصدخانه", "المرصد", "वेधशाला", "天文台", "Обсерваторный"],
    "Lighthouse": ["فانوس دریایی", "المنارة", "प्रकाशस्तंभ", "灯塔", "Маячный"],
  ]

  private static let cities: [String: [String]] = [
    "Tesselburg": ["تسلبورگ", "تسلبورغ", "टेसलबर्ग", "泰瑟尔堡", "Тессельбург"],
    "Port Meridian": ["پورت مریدین", "بورت ميريديان", "पोर्ट मेरिडियन", "子午港", "Порт-Меридиан"],
    "Vallombrosa": ["والومبروزا", "فالومبروزا", "वालोम्ब्रोसा", "瓦隆布罗萨", "Валломброза"],
    "Castelnuovo": ["کاستلنوئوو", "كاستيلنوفو", "कास्तेलनुओवो", "卡斯特尔诺沃", "Кастельнуово"],
    "Saint-Aubin": ["سن-اوبن", "سان أوبان", "सेंट-ओबिन", "圣奥班", "Сент-Обен"],
    "Lindenhafen": ["لیندن‌هافن", "ليندنهافن", "लिंडेनहाफ़ेन", "林登港", "Линденхафен"],
    "Nova Ripa": ["نووا ریپا", "نوفا ريبا", "नोवा रीपा", "诺瓦里帕", "Нова-Рипа"],
    "Belmonte": ["بلمونته", "بلمونتي", "बेलमोंटे", "贝尔蒙特", "Бельмонте"],
    "Kingsbridge": ["کینگزبریج", "كينغزبريدج", "किंग्सब्रिज", "国王桥", "Кингсбридж"],
    "Aurelia": ["اورلیا", "أوريليا", "ऑरेलिया", "奥雷利亚", "Аурелия"],
  ]

  private static let districts: [String: [String]] = [
    "Old Town": ["شهر قدیم", "المدينة القديمة", "पुराना शहर", "老城", "Старый город"],
    "Harbourside": ["کنار بندر", "ضفة الميناء", "हार्बरसाइड", "港湾", "Гавань"],
    "Northgate": ["دروازه شمالی", "البوابة الشمالية", "नॉर्थगेट", "北门", "Северные ворота"],
    "Riverbend": ["پیچ رود", "منعطف النهر", "रिवरबेंड", "河湾", "Излучина"],
    "Hilltop": ["سر تپه", "قمة التل", "हिलटॉप", "山顶", "Холм"],
    "Marina": ["مارینا", "المرسى", "मरीना", "码头", "Марина"],
    "Southfield": ["دشت جنوبی", "الحقل الجنوبي", "साउथफ़ील्ड", "南田", "Южное поле"],
    "Eastwick": ["ایست‌ویک", "إيستويك", "ईस्टविक", "东威克", "Иствик"],
    "Westend": ["وست‌اند", "الطرف الغربي", "वेस्टएंड", "西区", "Вест-Энд"],
    "Parkview": ["چشم‌انداز پارک", "إطلالة الحديقة", "पार्कव्यू", "公园景", "Парковый"],
    "Ironworks": ["ذوب‌آهن", "مصانع الحديد", "आयरनवर्क्स", "铁工厂", "Металлургический"],
    "Greenhill": ["تپه سبز", "التل الأخضر", "ग्रीनहिल", "绿山", "Зелёный холм"],
    "Lakeside": ["کنار دریاچه", "ضفة البحيرة", "लेकसाइड", "湖畔", "Озёрный"],
    "Fairmount": ["فرمونت", "فيرماونت", "फ़ेयरमाउंट", "费尔芒特", "Фэрмаунт"],
    "Brookside": ["کنار جوی", "ضفة الجدول", "ब्रुकसाइड", "溪畔", "Ручейный"],
    "Stonebridge": ["پل سنگی", "الجسر الحجري", "स्टोनब्रिज", "石桥", "Каменный мост"],
  ]

  private static let persianOrdinals = [
    "یکم", "دوم", "سوم", "چهارم", "پنجم", "ششم", "هفتم", "هشتم", "نهم", "دهم", "یازدهم", "دوازدهم", "سیزدهم", "چهاردهم",
    "پانزدهم", "شانزدهم",
  ]
  private static let arabicOrdinals = [
    "الأولى", "الثانية", "الثالثة", "الرابعة", "الخامسة", "السادسة", "السابعة", "الثامنة", "التاسعة", "العاشرة",
    "الحادية عشرة", "الثانية عشرة", "الثالثة عشرة", "الرابعة عشرة", "الخامسة عشرة", "السادسة عشرة",
  ]
  private static let hindiOrdinals = [
    "पहला", "दूसरा", "तीसरा", "चौथा", "पाँचवाँ", "छठा", "सातवाँ", "आठवाँ", "नौवाँ", "दसवाँ", "ग्यारहवाँ", "बारहवाँ",
    "तेरहवाँ", "चौदहवाँ", "पंद्रहवाँ", "सोलहवाँ",
  ]
  private static let chineseNumbers = [
    "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二", "十三", "十四", "十五", "十六",
  ]
}
