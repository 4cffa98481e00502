// Connections, schedules, hooks, members, keys, clusters and job runs of the ETL data-integration service.
package etl
