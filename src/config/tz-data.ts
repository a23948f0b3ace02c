/*
 * Data from the tz database, release 2025b. Intl can validate zone names but spells some of them
 * the old way (Asia/Calcutta) and renders most abbreviations as locale text (GMT+1), so the names
 * and the alphabetic abbreviations of the current rules are kept here. Zones absent from
 * ABBREVIATIONS use numeric abbreviations (+04) in the tz database.
 */

/** Every zone and link name, grouped by the part before the first slash ('' = no slash). */
export const ZONE_NAMES_BY_AREA: Readonly<Record<string, string>> = {
  '': `
    CET CST6CDT Cuba EET EST EST5EDT Egypt Eire GB GB-Eire GMT GMT+0 GMT-0 GMT0 Greenwich HST
    Hongkong Iceland Iran Israel Jamaica Japan Kwajalein Libya MET MST MST7MDT NZ NZ-CHAT Navajo
    PRC PST8PDT Poland Portugal ROC ROK Singapore Turkey UCT UTC Universal W-SU WET Zulu`,
  Africa: `
    Abidjan Accra Addis_Ababa Algiers Asmara Asmera Bamako Bangui Banjul Bissau Blantyre
    Brazzaville Bujumbura Cairo Casablanca Ceuta Conakry Dakar Dar_es_Salaam Djibouti Douala
    El_Aaiun Freetown Gaborone Harare Johannesburg Juba Kampala Khartoum Kigali Kinshasa Lagos
    Libreville Lome Luanda Lubumbashi Lusaka Malabo Maputo Maseru Mbabane Mogadishu Monrovia
    Nairobi Ndjamena Niamey Nouakchott Ouagadougou Porto-Novo Sao_Tome Timbuktu Tripoli Tunis
    Windhoek`,
  America: `
    Adak Anchorage Anguilla Antigua Araguaina Argentina/Buenos_Aires Argentina/Catamarca
    Argentina/ComodRivadavia Argentina/Cordoba Argentina/Jujuy Argentina/La_Rioja
    Argentina/Mendoza Argentina/Rio_Gallegos Argentina/Salta Argentina/San_Juan
    Argentina/San_Luis Argentina/Tucuman Argentina/Ushuaia Aruba Asuncion Atikokan Atka Bahia
    Bahia_Banderas Barbados Belem Belize Blanc-Sablon Boa_Vista Bogota Boise Buenos_Aires
    Cambridge_Bay Campo_Grande Cancun Caracas Catamarca Cayenne Cayman Chicago Chihuahua
    Ciudad_Juarez Coral_Harbour Cordoba Costa_Rica Coyhaique Creston Cuiaba Curacao Danmarkshavn
    Dawson Dawson_Creek Denver Detroit Dominica Edmonton Eirunepe El_Salvador Ensenada
    Fort_Nelson Fort_Wayne Fortaleza Glace_Bay Godthab Goose_Bay Grand_Turk Grenada Guadeloupe
    Guatemala Guayaquil Guyana Halifax Havana Hermosillo Indiana/Indianapolis Indiana/Knox
    Indiana/Marengo Indiana/Petersburg Indiana/Tell_City Indiana/Vevay Indiana/Vincennes
    Indiana/Winamac Indianapolis Inuvik Iqaluit Jamaica Jujuy Juneau Kentucky/Louisville
    Kentucky/Monticello Knox_IN Kralendijk La_Paz Lima Los_Angeles Louisville Lower_Princes
    Maceio Managua Manaus Marigot Martinique Matamoros Mazatlan Mendoza Menominee Merida
    Metlakatla Mexico_City Miquelon Moncton Monterrey Montevideo Montreal Montserrat Nassau
    New_York Nipigon Nome Noronha North_Dakota/Beulah North_Dakota/Center North_Dakota/New_Salem
    Nuuk Ojinaga Panama Pangnirtung Paramaribo Phoenix Port-au-Prince Port_of_Spain Porto_Acre
    Porto_Velho Puerto_Rico Punta_Arenas Rainy_River Rankin_Inlet Recife Regina Resolute
    Rio_Branco Rosario Santa_Isabel Santarem Santiago Santo_Domingo Sao_Paulo Scoresbysund
    Shiprock Sitka St_Barthelemy St_Johns St_Kitts St_Lucia St_Thomas St_Vincent Swift_Current
    Tegucigalpa Thule Thunder_Bay Tijuana Toronto Tortola Vancouver Virgin Whitehorse Winnipeg
    Yakutat Yellowknife`,
  Antarctica: `
    Casey Davis DumontDUrville Macquarie Mawson McMurdo Palmer Rothera South_Pole Syowa Troll
    Vostok`,
  Arctic: `
    Longyearbyen`,
  Asia: `
    Aden Almaty Amman Anadyr Aqtau Aqtobe Ashgabat Ashkhabad Atyrau Baghdad Bahrain Baku Bangkok
    Barnaul Beirut Bishkek Brunei Calcutta Chita Choibalsan Chongqing Chungking Colombo Dacca
    Damascus Dhaka Dili Dubai Dushanbe Famagusta Gaza Harbin Hebron Ho_Chi_Minh Hong_Kong Hovd
    Irkutsk Istanbul Jakarta Jayapura Jerusalem Kabul Kamchatka Karachi Kashgar Kathmandu
    Katmandu Khandyga Kolkata Krasnoyarsk Kuala_Lumpur Kuching Kuwait Macao Macau Magadan
    Makassar Manila Muscat Nicosia Novokuznetsk Novosibirsk Omsk Oral Phnom_Penh Pontianak
    Pyongyang Qatar Qostanay Qyzylorda Rangoon Riyadh Saigon Sakhalin Samarkand Seoul Shanghai
    Singapore Srednekolymsk Taipei Tashkent Tbilisi Tehran Tel_Aviv Thimbu Thimphu Tokyo Tomsk
    Ujung_Pandang Ulaanbaatar Ulan_Bator Urumqi Ust-Nera Vientiane Vladivostok Yakutsk Yangon
    Yekaterinburg Yerevan`,
  Atlantic: `
    Azores Bermuda Canary Cape_Verde Faeroe Faroe Jan_Mayen Madeira Reykjavik South_Georgia
    St_Helena Stanley`,
  Australia: `
    ACT Adelaide Brisbane Broken_Hill Canberra Currie Darwin Eucla Hobart LHI Lindeman Lord_Howe
    Melbourne NSW North Perth Queensland South Sydney Tasmania Victoria West Yancowinna`,
  Brazil: `
    Acre DeNoronha East West`,
  Canada: `
    Atlantic Central Eastern Mountain Newfoundland Pacific Saskatchewan Yukon`,
  Chile: `
    Continental EasterIsland`,
  Etc: `
    GMT GMT+0 GMT+1 GMT+10 GMT+11 GMT+12 GMT+2 GMT+3 GMT+4 GMT+5 GMT+6 GMT+7 GMT+8 GMT+9 GMT-0
    GMT-1 GMT-10 GMT-11 GMT-12 GMT-13 GMT-14 GMT-2 GMT-3 GMT-4 GMT-5 GMT-6 GMT-7 GMT-8 GMT-9
    GMT0 Greenwich UCT UTC Universal Zulu`,
  Europe: `
    Amsterdam Andorra Astrakhan Athens Belfast Belgrade Berlin Bratislava Brussels Bucharest
    Budapest Busingen Chisinau Copenhagen Dublin Gibraltar Guernsey Helsinki Isle_of_Man
    Istanbul Jersey Kaliningrad Kiev Kirov Kyiv Lisbon Ljubljana London Luxembourg Madrid Malta
    Mariehamn Minsk Monaco Moscow Nicosia Oslo Paris Podgorica Prague Riga Rome Samara
    San_Marino Sarajevo Saratov Simferopol Skopje Sofia Stockholm Tallinn Tirane Tiraspol
    Ulyanovsk Uzhgorod Vaduz Vatican Vienna Vilnius Volgograd Warsaw Zagreb Zaporozhye Zurich`,
  Indian: `
    Antananarivo Chagos Christmas Cocos Comoro Kerguelen Mahe Maldives Mauritius Mayotte Reunion`,
  Mexico: `
    BajaNorte BajaSur General`,
  Pacific: `
    Apia Auckland Bougainville Chatham Chuuk Easter Efate Enderbury Fakaofo Fiji Funafuti
    Galapagos Gambier Guadalcanal Guam Honolulu Johnston Kanton Kiritimati Kosrae Kwajalein
    Majuro Marquesas Midway Nauru Niue Norfolk Noumea Pago_Pago Palau Pitcairn Pohnpei Ponape
    Port_Moresby Rarotonga Saipan Samoa Tahiti Tarawa Tongatapu Truk Wake Wallis Yap`,
  US: `
    Alaska Aleutian Arizona Central East-Indiana Eastern Hawaii Indiana-Starke Michigan Mountain
    Pacific Samoa`,
};

/**
 * Alphabetic abbreviations by UTC offset ("CET+1 CEST+2": CET at +1 h, CEST at +2 h) and the zones
 * whose current rules use them.
 */
export const ABBREVIATIONS: Readonly<Record<string, string>> = {
  'ACST+9:30': `
    Australia/Darwin Australia/North`,
  'ACST+9:30 ACDT+10:30': `
    Australia/Adelaide Australia/Broken_Hill Australia/South Australia/Yancowinna`,
  'AEST+10': `
    Australia/Brisbane Australia/Lindeman Australia/Queensland`,
  'AEST+10 AEDT+11': `
    Antarctica/Macquarie Australia/ACT Australia/Canberra Australia/Currie Australia/Hobart
    Australia/Melbourne Australia/NSW Australia/Sydney Australia/Tasmania Australia/Victoria`,
  'AKST-9 AKDT-8': `
    America/Anchorage America/Juneau America/Metlakatla America/Nome America/Sitka
    America/Yakutat US/Alaska`,
  'AST-4': `
    America/Anguilla America/Antigua America/Aruba America/Barbados America/Blanc-Sablon
    America/Curacao America/Dominica America/Grenada America/Guadeloupe America/Kralendijk
    America/Lower_Princes America/Marigot America/Martinique America/Montserrat
    America/Port_of_Spain America/Puerto_Rico America/Santo_Domingo America/St_Barthelemy
    America/St_Kitts America/St_Lucia America/St_Thomas America/St_Vincent America/Tortola
    America/Virgin`,
  'AST-4 ADT-3': `
    America/Glace_Bay America/Goose_Bay America/Halifax America/Moncton America/Thule
    Atlantic/Bermuda Canada/Atlantic`,
  'AWST+8': `
    Australia/Perth Australia/West`,
  'CAT+2': `
    Africa/Blantyre Africa/Bujumbura Africa/Gaborone Africa/Harare Africa/Juba Africa/Khartoum
    Africa/Kigali Africa/Lubumbashi Africa/Lusaka Africa/Maputo Africa/Windhoek`,
  'CET+1': `
    Africa/Algiers Africa/Tunis`,
  'CET+1 CEST+2': `
    Africa/Ceuta Arctic/Longyearbyen Atlantic/Jan_Mayen CET Europe/Amsterdam Europe/Andorra
    Europe/Belgrade Europe/Berlin Europe/Bratislava Europe/Brussels Europe/Budapest
    Europe/Busingen Europe/Copenhagen Europe/Gibraltar Europe/Ljubljana Europe/Luxembourg
    Europe/Madrid Europe/Malta Europe/Monaco Europe/Oslo Europe/Paris Europe/Podgorica
    Europe/Prague Europe/Rome Europe/San_Marino Europe/Sarajevo Europe/Skopje Europe/Stockholm
    Europe/Tirane Europe/Vaduz Europe/Vatican Europe/Vienna Europe/Warsaw Europe/Zagreb
    Europe/Zurich Poland`,
  'CST+8': `
    Asia/Chongqing Asia/Chungking Asia/Harbin Asia/Macao Asia/Macau Asia/Shanghai Asia/Taipei
    PRC ROC`,
  'CST-5 CDT-4': `
    America/Havana Cuba`,
  'CST-6': `
    America/Bahia_Banderas America/Belize America/Chihuahua America/Costa_Rica
    America/El_Salvador America/Guatemala America/Managua America/Merida America/Mexico_City
    America/Monterrey America/Regina America/Swift_Current America/Tegucigalpa
    Canada/Saskatchewan Mexico/General`,
  'CST-6 CDT-5': `
    America/Chicago America/Indiana/Knox America/Indiana/Tell_City America/Knox_IN
    America/Matamoros America/Menominee America/North_Dakota/Beulah America/North_Dakota/Center
    America/North_Dakota/New_Salem America/Ojinaga America/Rainy_River America/Rankin_Inlet
    America/Resolute America/Winnipeg CST6CDT Canada/Central US/Central US/Indiana-Starke`,
  'ChST+10': `
    Pacific/Guam Pacific/Saipan`,
  'EAT+3': `
    Africa/Addis_Ababa Africa/Asmara Africa/Asmera Africa/Dar_es_Salaam Africa/Djibouti
    Africa/Kampala Africa/Mogadishu Africa/Nairobi Indian/Antananarivo Indian/Comoro
    Indian/Mayotte`,
  'EET+2': `
    Africa/Tripoli Europe/Kaliningrad Libya`,
  'EET+2 EEST+3': `
    Africa/Cairo Asia/Beirut Asia/Famagusta Asia/Gaza Asia/Hebron Asia/Nicosia EET Egypt
    Europe/Athens Europe/Bucharest Europe/Chisinau Europe/Helsinki Europe/Kiev Europe/Kyiv
    Europe/Mariehamn Europe/Nicosia Europe/Riga Europe/Sofia Europe/Tallinn Europe/Tiraspol
    Europe/Uzhgorod Europe/Vilnius Europe/Zaporozhye`,
  'EST-5': `
    America/Atikokan America/Cancun America/Cayman America/Coral_Harbour America/Jamaica
    America/Panama EST Jamaica`,
  'EST-5 EDT-4': `
    America/Detroit America/Fort_Wayne America/Grand_Turk America/Indiana/Indianapolis
    America/Indiana/Marengo America/Indiana/Petersburg America/Indiana/Vevay
    America/Indiana/Vincennes America/Indiana/Winamac America/Indianapolis America/Iqaluit
    America/Kentucky/Louisville America/Kentucky/Monticello America/Louisville America/Montreal
    America/Nassau America/New_York America/Nipigon America/Pangnirtung America/Port-au-Prince
    America/Thunder_Bay America/Toronto Canada/Eastern EST5EDT US/East-Indiana US/Eastern
    US/Michigan`,
  'GMT+0': `
    Africa/Abidjan Africa/Accra Africa/Bamako Africa/Banjul Africa/Bissau Africa/Conakry
    Africa/Dakar Africa/Freetown Africa/Lome Africa/Monrovia Africa/Nouakchott
    Africa/Ouagadougou Africa/Sao_Tome Africa/Timbuktu America/Danmarkshavn Atlantic/Reykjavik
    Atlantic/St_Helena Etc/GMT Etc/GMT+0 Etc/GMT-0 Etc/GMT0 Etc/Greenwich GMT GMT+0 GMT-0 GMT0
    Greenwich Iceland`,
  'GMT+0 BST+1': `
    Europe/Belfast Europe/Guernsey Europe/Isle_of_Man Europe/Jersey Europe/London GB GB-Eire`,
  'GMT+0 IST+1': `
    Eire Europe/Dublin`,
  'HKT+8': `
    Asia/Hong_Kong Hongkong`,
  'HST-10': `
    HST Pacific/Honolulu Pacific/Johnston US/Hawaii`,
  'HST-10 HDT-9': `
    America/Adak America/Atka US/Aleutian`,
  'IST+2 IDT+3': `
    Asia/Jerusalem Asia/Tel_Aviv Israel`,
  'IST+5:30': `
    Asia/Calcutta Asia/Kolkata`,
  'JST+9': `
    Asia/Tokyo Japan`,
  'KST+9': `
    Asia/Pyongyang Asia/Seoul ROK`,
  'MET+1 MEST+2': `
    MET`,
  'MSK+3': `
    Europe/Kirov Europe/Moscow Europe/Simferopol Europe/Volgograd W-SU`,
  'MST-7': `
    America/Creston America/Dawson America/Dawson_Creek America/Fort_Nelson America/Hermosillo
    America/Mazatlan America/Phoenix America/Whitehorse Canada/Yukon MST Mexico/BajaSur
    US/Arizona`,
  'MST-7 MDT-6': `
    America/Boise America/Cambridge_Bay America/Ciudad_Juarez America/Denver America/Edmonton
    America/Inuvik America/Shiprock America/Yellowknife Canada/Mountain MST7MDT Navajo
    US/Mountain`,
  'NST-3:30 NDT-2:30': `
    America/St_Johns Canada/Newfoundland`,
  'NZST+12 NZDT+13': `
    Antarctica/McMurdo Antarctica/South_Pole NZ Pacific/Auckland`,
  'PKT+5': `
    Asia/Karachi`,
  'PST+8': `
    Asia/Manila`,
  'PST-8 PDT-7': `
    America/Ensenada America/Los_Angeles America/Santa_Isabel America/Tijuana America/Vancouver
    Canada/Pacific Mexico/BajaNorte PST8PDT US/Pacific`,
  'SAST+2': `
    Africa/Johannesburg Africa/Maseru Africa/Mbabane`,
  'SST-11': `
    Pacific/Midway Pacific/Pago_Pago Pacific/Samoa US/Samoa`,
  'UTC+0': `
    Etc/UCT Etc/UTC Etc/Universal Etc/Zulu UCT UTC Universal Zulu`,
  'WAT+1': `
    Africa/Bangui Africa/Brazzaville Africa/Douala Africa/Kinshasa Africa/Lagos
    Africa/Libreville Africa/Luanda Africa/Malabo Africa/Ndjamena Africa/Niamey
    Africa/Porto-Novo`,
  'WET+0 WEST+1': `
    Atlantic/Canary Atlantic/Faeroe Atlantic/Faroe Atlantic/Madeira Europe/Lisbon Portugal WET`,
  'WIB+7': `
    Asia/Jakarta Asia/Pontianak`,
  'WIT+9': `
    Asia/Jayapura`,
  'WITA+8': `
    Asia/Makassar Asia/Ujung_Pandang`,
};
