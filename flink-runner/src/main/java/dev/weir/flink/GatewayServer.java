package dev.weir.flink;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.table.gateway.SqlGateway;
import org.apache.flink.table.gateway.service.context.DefaultContext;
import org.apache.flink.table.gateway.service.session.SessionManager;

/**
 * A local Flink SQL Gateway in front of a local MiniCluster, both in this JVM, for trying and
 * testing `weir flink run --gateway`: {@code GatewayServer PORT [SLOTS]}. Prints one JSON line,
 * {"event":"gateway","url":...,"restUrl":...}, once both serve, and runs until killed.
 */
public final class GatewayServer {
  public static void main(String[] args) throws Exception {
    ParentWatch.start();
    PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    Reporter reporter = new Reporter(protocol);
    int port = Integer.parseInt(args[0]);
    int slots = args.length > 1 ? Integer.parseInt(args[1]) : 4;

    MiniCluster cluster = LocalCluster.start(slots);
    URI rest = cluster.getRestAddress().get();

    Configuration conf = new Configuration();
    conf.setString("execution.target", "remote");
    conf.setString("rest.address", rest.getHost());
    conf.setString("rest.port", String.valueOf(rest.getPort()));
    conf.setString("sql-gateway.endpoint.type", "rest");
    conf.setString("sql-gateway.endpoint.rest.address", "127.0.0.1");
    conf.setString("sql-gateway.endpoint.rest.bind-address", "127.0.0.1");
    conf.setString("sql-gateway.endpoint.rest.port", String.valueOf(port));
    SqlGateway gateway = new SqlGateway(conf, SessionManager.create(new DefaultContext(conf, List.of())));
    Runtime.getRuntime().addShutdownHook(new Thread(gateway::stop));
    gateway.start();

    ObjectNode e = reporter.event("gateway");
    e.put("flinkVersion", EnvironmentInformation.getVersion());
    e.put("url", "http://127.0.0.1:" + port);
    e.put("restUrl", rest.toString());
    reporter.emit(e);
    gateway.waitUntilStop();
  }
}
