/** SPEC §8 texts shared by the auth page (browser) and the auth server modules. */
export const PASSWORDS_DIFFER = {
  title: "Passwords don't match",
  description: "Please make sure both passwords are the same.",
} as const;

export const PASSWORD_UPDATED = {
  title: "Password updated!",
  description: "Your password has been successfully changed. Please log in with your new password.",
} as const;

/** The reset page while the site cannot send email: no form, no promise of a link. */
export const RESET_UNAVAILABLE = "Password resets are unavailable because this site cannot send email yet. Please contact the site owner.";

export const RESET_EMAIL_SENT = {
  title: "Check your email!",
  description: "We've sent you a password reset link.",
} as const;

export const WELCOME_BACK = { title: "Welcome back!" } as const;

/** A plain user signed in: not an error, and not sent to an admin area they cannot open. */
export const SIGNED_IN_WITHOUT_ADMIN = {
  title: "Welcome back!",
  description: "You are signed in. The admin area needs an editor role; ask an administrator if you need one.",
} as const;

export const LOGGED_OUT = { title: "Logged out", description: "You have been successfully logged out" } as const;

export const LOGOUT_FAILED = { title: "Error", description: "Failed to log out" } as const;
