/** The API version and the media type that pins it, as the contract defines them (spec 9). */
export { API_VERSION, versionedMediaType } from "../../contract/media-type";
