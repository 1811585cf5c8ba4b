/**
 * A compile-time check for views built by spreading a stored record (`{ ...stored, extra }`) into a wire
 * contract type (functions/contracts/): TypeScript lets a spread carry fields the contract does not name,
 * and does not miss an optional contract field the spread lacks, so a field added to the record, or a
 * renamed optional field, would change the wire unnoticed. `SameKeys<Built, Contract>` is `true` only when
 * both have exactly the same field names; otherwise it names the odd ones in the error:
 *
 *   const _sameKeys: SameKeys<Omit<Tag, 'companyId'>, TagView> = true;
 */
type OddKeys<A, B> = Exclude<keyof A, keyof B> | Exclude<keyof B, keyof A>;

export type SameKeys<A, B> = [OddKeys<A, B>] extends [never] ? true : { fieldsNotInBoth: OddKeys<A, B> };
