/** What provisioning a server's users (PostgreSQL's roles, Redis's ACL users) takes. */
export interface ProvisioningOptions<User extends string> {
  /** A connection allowed to create users (the database owner or a superuser; a Redis user that may run ACL SETUSER). */
  adminUrl: string;
  /** The password each user logs in with. */
  passwords: Record<User, string>;
}

/** Each user's connection URL: the admin's, with the user's name on the server (`nameOf`) and password instead. */
export function userUrls<User extends string>(
  { adminUrl, passwords }: ProvisioningOptions<User>,
  users: readonly User[],
  nameOf: (user: User) => string,
): Record<User, string> {
  return Object.fromEntries(
    users.map((user) => {
      const url = new URL(adminUrl);
      url.username = encodeURIComponent(nameOf(user));
      url.password = encodeURIComponent(passwords[user]);
      return [user, url.toString()];
    }),
  ) as Record<User, string>;
}
