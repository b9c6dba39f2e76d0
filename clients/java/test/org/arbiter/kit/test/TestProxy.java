package org.arbiter.kit.test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback HTTP/1.1 proxy in front of the local server that misbehaves on the first request:
 * SWALLOW_FIRST forwards it but never answers (the client times out although the command was
 * applied); UNAVAILABLE_FIRST answers 503 with a Retry-After without forwarding. Later requests
 * are relayed. It records the status of every answer the server gave it.
 */
final class TestProxy implements AutoCloseable {
    enum Mode { SWALLOW_FIRST, UNAVAILABLE_FIRST }

    private final ServerSocket listener;
    private final int targetPort;
    private final Mode mode;
    private final String retryAfter;
    private final AtomicInteger requests = new AtomicInteger();
    final List<Integer> upstreamStatuses = Collections.synchronizedList(new ArrayList<>());
    private final List<Socket> open = Collections.synchronizedList(new ArrayList<>());

    TestProxy(int targetPort, Mode mode, String retryAfter) throws IOException {
        this.targetPort = targetPort;
        this.mode = mode;
        this.retryAfter = retryAfter;
        this.listener = new ServerSocket();
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread accept = new Thread(this::acceptLoop, "test-proxy");
        accept.setDaemon(true);
        accept.start();
    }

    String url() {
        return "http://127.0.0.1:" + listener.getLocalPort();
    }

    int requests() {
        return requests.get();
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                open.add(client);
                Thread t = new Thread(() -> handle(client), "test-proxy-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void handle(Socket client) {
        try (Socket c = client) {
            c.setSoTimeout(10_000);
            InputStream in = c.getInputStream();
            String head = readHead(in);
            if (head == null) return;
            int length = 0;
            StringBuilder forwardedHead = new StringBuilder();
            for (String line : head.split("\r\n")) {
                String lower = line.toLowerCase(Locale.ROOT);
                if (lower.startsWith("content-length:")) length = Integer.parseInt(line.substring(15).trim());
                if (lower.startsWith("connection:") || lower.startsWith("keep-alive:")) continue;
                forwardedHead.append(line).append("\r\n");
            }
            forwardedHead.append("Connection: close\r\n\r\n");
            byte[] body = in.readNBytes(length);
            int n = requests.incrementAndGet();
            OutputStream out = c.getOutputStream();
            if (n == 1 && mode == Mode.UNAVAILABLE_FIRST) {
                byte[] error = "{\"error\":{\"code\":\"unavailable\",\"message\":\"test proxy: try later\"}}".getBytes(StandardCharsets.UTF_8);
                out.write(("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: " + retryAfter
                        + "\r\nContent-Length: " + error.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(error);
                out.flush();
                return;
            }
            byte[] answer;
            try (Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort)) {
                upstream.setSoTimeout(10_000);
                upstream.getOutputStream().write(forwardedHead.toString().getBytes(StandardCharsets.ISO_8859_1));
                upstream.getOutputStream().write(body);
                upstream.getOutputStream().flush();
                answer = upstream.getInputStream().readAllBytes();
            }
            String statusLine = new String(answer, 0, Math.min(answer.length, 20), StandardCharsets.ISO_8859_1);
            upstreamStatuses.add(Integer.parseInt(statusLine.substring(9, 12)));
            if (n == 1 && mode == Mode.SWALLOW_FIRST) {
                // Hold the connection without a word until the client gives up and closes it.
                while (in.read() >= 0) {
                    // discard
                }
                return;
            }
            out.write(answer);
            out.flush();
        } catch (IOException | RuntimeException e) {
            // the client went away, or the timeout of this test connection passed
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int state = 0;
        for (;;) {
            int b = in.read();
            if (b < 0) return null;
            head.write(b);
            state = (b == '\r' && (state == 0 || state == 2)) ? state + 1 : (b == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
            if (state == 4) break;
            if (head.size() > 65_536) throw new IOException("head too large");
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        return text.substring(0, text.length() - 4);
    }

    @Override
    public void close() throws IOException {
        listener.close();
        synchronized (open) {
            for (Socket s : open) s.close();
        }
    }
}
