/** What others may use of a user: the profile every record that shows a person carries (members, accounts). */
export { avatarUrl, publicProfile } from "./json";
