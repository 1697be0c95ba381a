package live

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func props(t *testing.T, text string) map[string]string {
	t.Helper()
	p, err := ReadProperties("client.properties", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCommandConfigAsKafkasToolsReadIt(t *testing.T) {
	p := props(t, `# a comment
! another
bootstrap.servers = b1:9092,b2:9092
security.protocol=SASL_SSL
sasl.mechanism: SCRAM-SHA-512
sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required \
    username="alice" password="s3 cr\"et";
ssl.truststore.type=PEM
ssl.truststore.certificates=-----BEGIN CERTIFICATE-----
ssl.endpoint.identification.algorithm=
`)
	var c Config
	if err := c.ApplyProperties("client.properties", p); err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.Brokers, ",") != "b1:9092,b2:9092" || !c.TLS || c.SASLMechanism != "SCRAM-SHA-512" || c.SASLUser != "alice" ||
		c.SASLPassword != `s3 cr"et` || string(c.CAPEM) != "-----BEGIN CERTIFICATE-----" || !c.NoHostnameCheck {
		t.Errorf("%+v", c)
	}
	// a --bootstrap-server given first stays
	c = Config{Brokers: []string{"flag:1"}}
	if err := c.ApplyProperties("client.properties", p); err != nil || c.Brokers[0] != "flag:1" {
		t.Errorf("%v %v", c.Brokers, err)
	}
}

func TestCommandConfigErrorsNameTheKey(t *testing.T) {
	for text, want := range map[string]string{
		"security.protocol=SSL\nssl.truststore.location=/x.jks\n":                              "client.properties: ssl.truststore.type: JKS stores are not read: kviz reads PEM",
		"security.protocol=SSL\nssl.keystore.type=PKCS12\n":                                    "ssl.keystore.type: PKCS12 stores are not read",
		"security.protocol=TLS\n":                                                              `security.protocol: "TLS" is not one of PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL`,
		"security.protocol=SASL_PLAINTEXT\n":                                                   "sasl.mechanism: GSSAPI is not supported",
		"security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n":                             `sasl.jaas.config: PLAIN needs username="..."`,
		"security.protocol=SASL_SSL\nsasl.mechanism=OAUTHBEARER\n":                             "sasl.oauthbearer.token.endpoint.url: OAUTHBEARER needs the token endpoint",
		"sasl.mechanism=PLAIN\n":                                                               "given, but security.protocol is PLAINTEXT",
		"bootstrap.servers=nohost\n":                                                           `bootstrap.servers: "nohost" is not HOST:PORT`,
		"security.protocol=SSL\nssl.key.password=x\nssl.keystore.type=PEM\n":                   "ssl.key.password: an encrypted key is not read",
		"security.protocol=SSL\nssl.keystore.type=PEM\nssl.keystore.key=-----BEGIN KEY-----\n": "ssl.keystore.key and ssl.keystore.certificate.chain go together",
	} {
		var c Config
		err := c.ApplyProperties("client.properties", props(t, text))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
	if _, err := ReadProperties("c.properties", strings.NewReader("ok=1\njustakey\n")); err == nil || !strings.Contains(err.Error(), "c.properties:2:") {
		t.Errorf("a line that is no key=value: %v", err)
	}
}

// OAUTHBEARER: the client-credentials grant against the token endpoint.
func TestOAuthClientCredentials(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, pass, _ := r.BasicAuth()
		if r.FormValue("grant_type") != "client_credentials" || user != "kviz" || pass != "secret" || r.FormValue("scope") != "kafka" {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":"invalid_client"}`))
			return
		}
		_, _ = w.Write([]byte(`{"access_token":"tok-1","token_type":"Bearer"}`))
	}))
	defer srv.Close()
	p := props(t, "security.protocol=SASL_SSL\nsasl.mechanism=OAUTHBEARER\nsasl.oauthbearer.token.endpoint.url="+srv.URL+
		"\nsasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required clientId=\"kviz\" clientSecret=\"secret\" scope=\"kafka\";\n")
	var c Config
	if err := c.ApplyProperties("client.properties", p); err != nil {
		t.Fatal(err)
	}
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	tok, err := c.OAuth.fetch(context.Background())
	if err != nil || tok != "tok-1" {
		t.Fatalf("token %q, %v", tok, err)
	}
	c.OAuth.ClientSecret = "wrong"
	if _, err := c.OAuth.fetch(context.Background()); err == nil || !strings.Contains(err.Error(), "401 Unauthorized invalid_client") {
		t.Errorf("a refused grant: %v", err)
	}
	if err := (Config{Brokers: []string{"a:1"}, SASLMechanism: "OAUTHBEARER"}).Check(); err == nil || !strings.Contains(err.Error(), OAuthTokenEnv) {
		t.Errorf("no token: %v", err)
	}
}
