import packageJson from "../../package.json";

/**
 * The running release: package.json's version (semver, one CHANGELOG.md entry per release). Shown in the
 * admin footer and by /readyz, and written into backups, so an owner and a load balancer can tell which
 * release an instance runs during an upgrade.
 */
export const APP_VERSION: string = packageJson.version;
export const APP_NAME: string = packageJson.name;
