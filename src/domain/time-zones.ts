// SharePoint's time zones (SP.TimeZone): the ids its regional settings use (the same numbering
// as PnP's TimeZone enumeration), each zone's UTC offset and whether it keeps daylight time.
// spemu's sites are on UTC (93); the others are listed and read (`timeZones`,
// `timeZones/getById(n)`), not applied. Descriptions follow SharePoint's "(UTC+05:30) Places".

export interface TimeZoneInfo {
  id: number;
  description: string;
  /** Minutes to add to local standard time to get UTC (SharePoint's `Information.Bias`). */
  bias: number;
  /** SharePoint's `Information.DaylightBias`: -60 where daylight time is kept, else 0. */
  daylightBias: number;
}

/** The site's zone: spemu keeps every date in UTC. */
export const UTC_TIME_ZONE_ID = 93;

// [id, offset from UTC in minutes, places, keeps daylight time]
const ZONES: ReadonlyArray<readonly [number, number, string, boolean]> = [
  [2, 0, 'Dublin, Edinburgh, Lisbon, London', true],
  [3, 60, 'Brussels, Copenhagen, Madrid, Paris', true],
  [4, 60, 'Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna', true],
  [5, 120, 'Athens, Bucharest, Istanbul', true],
  [6, 60, 'Belgrade, Bratislava, Budapest, Ljubljana, Prague', true],
  [7, 120, 'Minsk', false],
  [8, -180, 'Brasilia', false],
  [9, -240, 'Atlantic Time (Canada)', true],
  [10, -300, 'Eastern Time (US and Canada)', true],
  [11, -360, 'Central Time (US and Canada)', true],
  [12, -420, 'Mountain Time (US and Canada)', true],
  [13, -480, 'Pacific Time (US and Canada)', true],
  [14, -540, 'Alaska', true],
  [15, -600, 'Hawaii', false],
  [16, -660, 'Midway Island, Samoa', false],
  [17, 720, 'Auckland, Wellington', true],
  [18, 600, 'Brisbane', false],
  [19, 570, 'Adelaide', true],
  [20, 540, 'Osaka, Sapporo, Tokyo', false],
  [21, 480, 'Kuala Lumpur, Singapore', false],
  [22, 420, 'Bangkok, Hanoi, Jakarta', false],
  [23, 330, 'Chennai, Kolkata, Mumbai, New Delhi', false],
  [24, 240, 'Abu Dhabi, Muscat', false],
  [25, 210, 'Tehran', false],
  [26, 180, 'Baghdad', false],
  [27, 120, 'Jerusalem', true],
  [28, -210, 'Newfoundland and Labrador', true],
  [29, -60, 'Azores', true],
  [30, -120, 'Mid-Atlantic', false],
  [31, 0, 'Monrovia, Reykjavik', false],
  [32, -180, 'Cayenne', false],
  [33, -240, 'Georgetown, La Paz, San Juan', false],
  [34, -300, 'Indiana (East)', true],
  [35, -300, 'Bogota, Lima, Quito', false],
  [36, -360, 'Saskatchewan', false],
  [37, -360, 'Guadalajara, Mexico City, Monterrey', false],
  [38, -420, 'Arizona', false],
  [39, -720, 'International Date Line West', false],
  [40, 720, 'Fiji Is., Marshall Is.', false],
  [41, 660, 'Magadan, Solomon Is., New Caledonia', false],
  [42, 600, 'Hobart', true],
  [43, 600, 'Guam, Port Moresby', false],
  [44, 570, 'Darwin', false],
  [45, 480, 'Beijing, Chongqing, Hong Kong S.A.R., Urumqi', false],
  [46, 360, 'Novosibirsk', false],
  [47, 300, 'Tashkent', false],
  [48, 270, 'Kabul', false],
  [49, 120, 'Cairo', false],
  [50, 120, 'Harare, Pretoria', false],
  [51, 180, 'Moscow, St. Petersburg, Volgograd', false],
  [53, -60, 'Cape Verde Is.', false],
  [54, 240, 'Baku', false],
  [55, -360, 'Central America', false],
  [56, 180, 'Nairobi', false],
  [57, 60, 'Sarajevo, Skopje, Warsaw, Zagreb', true],
  [58, 300, 'Ekaterinburg', false],
  [59, 120, 'Helsinki, Kyiv, Riga, Sofia, Tallinn, Vilnius', true],
  [60, -180, 'Greenland', true],
  [61, 390, 'Yangon (Rangoon)', false],
  [62, 345, 'Kathmandu', false],
  [63, 480, 'Irkutsk', false],
  [64, 420, 'Krasnoyarsk', false],
  [65, -240, 'Santiago', true],
  [66, 330, 'Sri Jayawardenepura', false],
  [67, 780, "Nuku'alofa", false],
  [68, 600, 'Vladivostok', false],
  [69, 60, 'West Central Africa', false],
  [70, 540, 'Yakutsk', false],
  [71, 360, 'Astana, Dhaka', false],
  [72, 540, 'Seoul', false],
  [73, 480, 'Perth', false],
  [74, 180, 'Kuwait, Riyadh', false],
  [75, 480, 'Taipei', false],
  [76, 600, 'Canberra, Melbourne, Sydney', true],
  [77, -420, 'Chihuahua, La Paz, Mazatlan', true],
  [78, -480, 'Tijuana, Baja California', true],
  [79, 120, 'Amman', false],
  [80, 120, 'Beirut', true],
  [81, -240, 'Manaus', false],
  [82, 240, 'Tbilisi', false],
  [83, 120, 'Windhoek', false],
  [84, 240, 'Yerevan', false],
  [85, -180, 'Buenos Aires', false],
  [86, 0, 'Casablanca', false],
  [87, 300, 'Islamabad, Karachi', false],
  [88, -270, 'Caracas', false],
  [89, 240, 'Port Louis', false],
  [90, -180, 'Montevideo', false],
  [91, -240, 'Asuncion', true],
  [92, 720, 'Petropavlovsk-Kamchatsky', false],
  [93, 0, 'Coordinated Universal Time', false],
];

function offsetText(minutes: number): string {
  if (minutes === 0) return '(UTC)';
  const sign = minutes > 0 ? '+' : '-';
  const abs = Math.abs(minutes);
  return `(UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')})`;
}

export const TIME_ZONES: readonly TimeZoneInfo[] = ZONES.map(([id, offset, places, daylight]) => ({
  id, description: `${offsetText(offset)} ${places}`, bias: -offset, daylightBias: daylight ? -60 : 0,
}));

export const timeZoneById = (id: number): TimeZoneInfo | undefined => TIME_ZONES.find((z) => z.id === id);
