/** Roles of spec §4.1, most powerful first. */
export const USER_ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const;
export type UserRole = (typeof USER_ROLES)[number];

export function isUserRole(value: string): value is UserRole {
  return (USER_ROLES as readonly string[]).includes(value);
}
