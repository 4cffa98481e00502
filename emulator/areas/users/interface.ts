/**
 * What others may use of users: the record, looked up by id or email, a new user (members invite
 * one), and the profile every record that shows a person carries (members, accounts).
 */
export { avatarUrl, publicProfile } from "./json";
export { addUser, allUsers, userByEmail, userById, USERS, type UserRecord } from "./model";
