/**
 * The serialized provider of Cluster resources. An installed package's state refers to this module
 * by name (`require("pulumi-etl/dist/provider/shims/cluster.js")`), so its path is part of the public interface.
 */
import { shimFor } from "./shim";

export = shimFor("Cluster");
