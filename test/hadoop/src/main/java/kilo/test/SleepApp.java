// SPDX-License-Identifier: Apache-2.0
package kilo.test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.PrivilegedExceptionAction;
import java.util.HashMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.YarnApplicationAttemptState;
import org.apache.hadoop.yarn.client.api.AMRMClient;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.client.api.NMClient;
import org.apache.hadoop.yarn.client.api.NMTokenCache;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.client.api.YarnClientApplication;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.security.AMRMTokenIdentifier;

/**
 * A YARN application for the tests: its ApplicationMaster runs unmanaged in
 * this JVM and holds a given number of containers on one NodeManager, each
 * running a shell command (by default "exec sleep 3600").
 *
 * Usage: SleepApp --node HOST --report FILE [--count N] [--mb MB] [--vcores N]
 *                 [--command CMD] [--wait-ms MS]
 *
 * The classpath starts with a client conf dir (test/hadoop/mkconf.py). Once
 * every container was started, one JSON line {"app":ID,"containers":[ID...]}
 * goes to stdout. The AM heartbeats every 300 ms and rewrites FILE each time:
 * {"app","state","running":[ID...],"completed":[{"id","exitStatus","diagnostics"}]}
 * (completed: what the RM reported, e.g. preempted or killed); while it still
 * waits for its containers (at most MS, default 60000, then it exits 1) FILE
 * is rewritten on every allocate call, running listing those started. On
 * SIGTERM, waiting or not, the AM stops its containers and unregisters (a
 * request still pending goes with it).
 */
public final class SleepApp {
  private static final ObjectMapper JSON = new ObjectMapper();
  private Path reportFile;
  private final YarnClient yc;
  private final ApplicationId id;
  private final UserGroupInformation ugi;
  private AMRMClient<ContainerRequest> amrm;
  private NMClient nm;
  private final List<Container> containers = new ArrayList<>();
  private final Map<String, ContainerStatus> completed = new LinkedHashMap<>();
  private volatile boolean stopped;
  private Thread heartbeat;

  private SleepApp(YarnClient yc, ApplicationId id, UserGroupInformation ugi) {
    this.yc = yc;
    this.id = id;
    this.ugi = ugi;
  }

  String id() {
    return id.toString();
  }

  public static void main(String[] argv) throws Exception {
    Map<String, String> a = new HashMap<>();
    for (int i = 0; i + 1 < argv.length; i += 2) {
      a.put(argv[i], argv[i + 1]);
    }
    if (a.get("--node") == null || a.get("--report") == null) {
      System.err.println("usage: SleepApp --node HOST --report FILE [--count N] [--mb MB]"
          + " [--vcores N] [--command CMD]");
      System.exit(2);
    }
    SleepApp app = start(new YarnConfiguration(), a.get("--node"),
        Integer.parseInt(a.getOrDefault("--count", "1")),
        Integer.parseInt(a.getOrDefault("--mb", "256")),
        Integer.parseInt(a.getOrDefault("--vcores", "1")),
        a.getOrDefault("--command", "exec sleep 3600"), Path.of(a.get("--report")),
        Long.parseLong(a.getOrDefault("--wait-ms", "60000")));
    System.out.println(app.started());
    System.out.flush();
    Thread.currentThread().join(); // until SIGTERM
  }

  static SleepApp start(Configuration conf, String node, int count, int mb, int vcores,
      String command, Path reportFile, long waitMs) throws Exception {
    YarnClient yc = YarnClient.createYarnClient();
    yc.init(conf);
    yc.start();
    YarnClientApplication created = yc.createApplication();
    ApplicationSubmissionContext ctx = created.getApplicationSubmissionContext();
    ApplicationId id = ctx.getApplicationId();
    ctx.setApplicationName("kilo-sleep");
    ctx.setQueue("default");
    ctx.setUnmanagedAM(true);
    ctx.setAMContainerSpec(ContainerLaunchContext.newInstance(null, null, null, null, null, null));
    ctx.setResource(Resource.newInstance(128, 1));
    yc.submitApplication(ctx);

    ApplicationAttemptId attempt = null;
    for (int i = 0; i < 600; i++) {
      ApplicationReport r = yc.getApplicationReport(id);
      attempt = r.getCurrentApplicationAttemptId();
      if (attempt != null
          && yc.getApplicationAttemptReport(attempt).getYarnApplicationAttemptState()
              == YarnApplicationAttemptState.LAUNCHED) {
        break;
      }
      Thread.sleep(100);
    }
    Token<AMRMTokenIdentifier> token = yc.getAMRMToken(id);
    if (token == null) {
      throw new IllegalStateException("no AMRM token for " + id);
    }
    UserGroupInformation ugi = UserGroupInformation.createRemoteUser(
        UserGroupInformation.getCurrentUser().getShortUserName());
    ugi.addToken(token);
    SleepApp app = new SleepApp(yc, id, ugi);
    app.reportFile = reportFile;
    Runtime.getRuntime().addShutdownHook(new Thread(app::stop));
    app.run(conf, node, count, mb, vcores, command, waitMs);
    return app;
  }

  private <T> T as(PrivilegedExceptionAction<T> a) throws Exception {
    return ugi.doAs(a);
  }

  private void run(Configuration conf, String node, int count, int mb, int vcores, String command,
      long waitMs) throws Exception {
    NMTokenCache tokens = new NMTokenCache();
    as(() -> {
      amrm = AMRMClient.createAMRMClient();
      amrm.setNMTokenCache(tokens);
      amrm.init(conf);
      amrm.start();
      amrm.registerApplicationMaster("", 0, "");
      nm = NMClient.createNMClient();
      nm.setNMTokenCache(tokens);
      nm.init(conf);
      nm.start();
      return null;
    });
    List<ContainerRequest> reqs = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ContainerRequest r = new ContainerRequest(Resource.newInstance(mb, vcores),
          new String[] {node}, null, Priority.newInstance(1), false);
      reqs.add(r);
      amrm.addContainerRequest(r);
    }
    String log = ApplicationConstants.LOG_DIR_EXPANSION_VAR;
    List<String> cmd = List.of(command + " 1>" + log + "/stdout 2>" + log + "/stderr");
    long deadline = System.currentTimeMillis() + waitMs;
    while (containers.size() < count) {
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException("only " + containers.size() + " of " + count
            + " containers on " + node + " in " + waitMs + " ms");
      }
      AllocateResponse resp = as(() -> amrm.allocate(0.1f));
      for (Container c : resp.getAllocatedContainers()) {
        if (containers.size() < count) {
          ContainerLaunchContext clc =
              ContainerLaunchContext.newInstance(null, null, cmd, null, null, null);
          as(() -> nm.startContainer(c, clc));
          synchronized (this) {
            containers.add(c);
          }
        } else {
          as(() -> {
            amrm.releaseAssignedContainer(c.getId());
            return null;
          });
        }
      }
      record(resp);
      writeReport();
      Thread.sleep(100);
    }
    for (ContainerRequest r : reqs) {
      amrm.removeContainerRequest(r);
    }
    writeReport();
    heartbeat = new Thread(() -> {
      while (!stopped) {
        try {
          record(as(() -> amrm.allocate(0.5f)));
          writeReport();
          Thread.sleep(300);
        } catch (InterruptedException e) {
          return;
        } catch (Exception e) {
          System.err.println("SleepApp " + id + ": heartbeat: " + e);
          try {
            Thread.sleep(1000);
          } catch (InterruptedException ie) {
            return;
          }
        }
      }
    }, "am-" + id);
    heartbeat.setDaemon(true);
    heartbeat.start();
  }

  private synchronized void record(AllocateResponse resp) {
    for (ContainerStatus s : resp.getCompletedContainersStatuses()) {
      completed.put(s.getContainerId().toString(), s);
    }
  }

  synchronized String started() throws Exception {
    ObjectNode o = JSON.createObjectNode().put("app", id());
    ArrayNode ids = o.putArray("containers");
    for (Container c : containers) {
      ids.add(c.getId().toString());
    }
    return JSON.writeValueAsString(o);
  }

  private void writeReport() throws Exception {
    String state;
    try {
      state = yc.getApplicationReport(id).getYarnApplicationState().toString();
    } catch (Exception e) {
      state = "UNKNOWN";
    }
    ObjectNode o = JSON.createObjectNode().put("app", id()).put("state", state);
    ArrayNode running = o.putArray("running");
    ArrayNode done = o.putArray("completed");
    synchronized (this) {
      for (Container c : containers) {
        if (!completed.containsKey(c.getId().toString())) {
          running.add(c.getId().toString());
        }
      }
      for (ContainerStatus st : completed.values()) {
        done.addObject().put("id", st.getContainerId().toString())
            .put("exitStatus", st.getExitStatus()).put("diagnostics", st.getDiagnostics());
      }
    }
    Path tmp = reportFile.resolveSibling("." + reportFile.getFileName() + ".tmp");
    Files.writeString(tmp, JSON.writeValueAsString(o) + "\n");
    Files.move(tmp, reportFile, StandardCopyOption.ATOMIC_MOVE);
  }

  void stop() {
    if (stopped) {
      return;
    }
    stopped = true;
    try {
      if (heartbeat != null) {
        heartbeat.interrupt();
        heartbeat.join(5000);
      }
      if (amrm != null && nm != null) { // registered
        as(() -> {
          nm.stop();
          amrm.unregisterApplicationMaster(FinalApplicationStatus.SUCCEEDED, "", "");
          amrm.stop();
          return null;
        });
      }
    } catch (Exception e) {
      System.err.println("SleepApp " + id + ": stop: " + e);
    }
    yc.stop();
  }
}
