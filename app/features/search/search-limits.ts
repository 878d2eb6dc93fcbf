/** Longer queries are not searched (the empty state answers them); no real search is this long. */
export const MAX_QUERY_LENGTH = 200;
