/**
 * What others may know of accounts: the record, found by id (whether it has billing information,
 * its uid) or by the uid a `{base_url}` names, and every account (the state dump lists them).
 */
export { accountById, accountByUid, allAccounts, ACCOUNTS, type AccountRecord } from "./model";
