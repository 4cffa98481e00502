/** The media type that pins the API version, as the contract defines it (spec 9). */
export { versionedMediaType } from "../../contract/media-type";
