/**
 * What stands for a person whose account was deleted (LGPD), the same in every order, ticket, attendee and event of
 * theirs: recognisably nobody, and still distinct per account for the books.
 */
export const erasedPerson = (userId: string) => ({
  name: 'Titular removido',
  email: `removido+${userId.slice(0, 8)}@anonimo.invalid`,
});

export type ErasedPerson = ReturnType<typeof erasedPerson>;
