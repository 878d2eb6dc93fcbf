/** The report's dimensions, each a table in Statistics and a rollup dimension. */
export const DIMENSIONS = ["page", "entry", "referrer", "campaign", "country", "device", "browser", "os"] as const;
export type Dimension = (typeof DIMENSIONS)[number];

export const DIMENSION_TITLES: Record<Dimension, string> = {
  page: "Top pages",
  entry: "Entry pages",
  referrer: "Referrers",
  campaign: "Campaigns",
  country: "Countries",
  device: "Devices",
  browser: "Browsers",
  os: "Operating systems",
};
