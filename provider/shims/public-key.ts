/**
 * The serialized provider of PublicKey resources. An installed package's state refers to this module
 * by name (`require("pulumi-etl/dist/provider/shims/public-key.js")`), so its path is part of the public interface.
 */
import { shimFor } from "./shim";

export = shimFor("PublicKey");
