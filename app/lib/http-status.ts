/**
 * What an error page calls a status. React Router's statusText is not reliable here (a thrown 403
 * arrived as "Internal Server Error"), so each page names its status from this one list.
 */
const SERVER_ERROR = "Something went wrong";

const STATUS_TITLES: Record<number, string> = {
  400: "Bad request",
  401: "Sign-in required",
  403: "Access denied",
  404: "Page not found",
  405: "Method not allowed",
  408: "Request timed out",
  409: "Conflict",
  413: "Request too large",
  415: "Unsupported file type",
  429: "Too many requests",
  500: SERVER_ERROR,
  502: "Bad gateway",
  503: "Service unavailable",
};

export function statusTitle(status: number): string {
  return STATUS_TITLES[status] ?? (status >= 500 ? SERVER_ERROR : "Request refused");
}

/** The document title of an error page, e.g. "403 Access denied". */
export function statusPageTitle(status: number): string {
  return `${status} ${statusTitle(status)}`;
}
