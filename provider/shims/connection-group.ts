/**
 * The serialized provider of ConnectionGroup resources. An installed package's state refers to this module
 * by name (`require("pulumi-etl/dist/provider/shims/connection-group.js")`), so its path is part of the public interface.
 */
import { shimFor } from "./shim";

export = shimFor("ConnectionGroup");
