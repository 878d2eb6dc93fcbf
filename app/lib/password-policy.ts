export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 128;

/** Returns why a password is too weak, or null when it is acceptable. */
export function passwordProblem(password: string, email?: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) {
    return `Password must be at least ${PASSWORD_MIN_LENGTH} characters`;
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    return `Password must be at most ${PASSWORD_MAX_LENGTH} characters`;
  }
  if (new Set(password).size < 4) return "Password is too simple: use more different characters";
  const emailName = email?.toLowerCase().split("@")[0] ?? "";
  if (emailName.length >= 3 && password.toLowerCase().includes(emailName)) {
    return "Password must not contain your email name";
  }
  return null;
}
