import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

/** A CA, a server certificate for 127.0.0.1 and a client certificate, made now with openssl (test-only keys). */
export interface TestCerts {
  ca: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

export function makeTestCerts(dir: string): TestCerts {
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync("openssl", args, { stdio: "pipe" });
  openssl(
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-days",
    "1",
    "-subj",
    "/CN=provider-runtime test CA",
    "-keyout",
    at("ca.key"),
    "-out",
    at("ca.pem"),
  );
  const leaf = (name: string, subject: string, extensions: string) => {
    openssl(
      "req",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-subj",
      subject,
      "-keyout",
      at(`${name}.key`),
      "-out",
      at(`${name}.csr`),
    );
    const ext = at(`${name}.ext`);
    writeFileSync(ext, extensions);
    openssl(
      "x509",
      "-req",
      "-in",
      at(`${name}.csr`),
      "-CA",
      at("ca.pem"),
      "-CAkey",
      at("ca.key"),
      "-CAcreateserial",
      "-days",
      "1",
      "-out",
      at(`${name}.pem`),
      "-extfile",
      ext,
    );
  };
  leaf("server", "/CN=127.0.0.1", "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n");
  leaf("client", "/CN=provider-runtime node", "extendedKeyUsage=clientAuth\n");
  return {
    ca: at("ca.pem"),
    serverCert: at("server.pem"),
    serverKey: at("server.key"),
    clientCert: at("client.pem"),
    clientKey: at("client.key"),
  };
}
