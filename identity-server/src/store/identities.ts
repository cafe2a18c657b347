// The identity store, one module per purpose; this file gathers them so callers import one place.
export {
  insertIdentity,
  updateIdentity,
  deleteIdentity,
  DuplicateIdentityError,
} from "./identity-writes.ts";
export { updateCredentialConfig } from "./identity-credentials.ts";
export {
  updateVerifiableAddress,
  findIdentityIdByRecoveryAddress,
  findIdentityIdByVerifiableAddress,
} from "./identity-addresses.ts";
export {
  findIdentity,
  findIdentityByIdentifier,
  countIdentities,
  type IdentityReadOptions,
} from "./identity-reads.ts";
export { listIdentities, type IdentityListFilter, type IdentityPaging } from "./identity-list.ts";
