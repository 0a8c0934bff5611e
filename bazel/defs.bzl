"""Bazel rules for rulec: generate code from .rule files, test it, check the rules.

    load("@rulec//bazel:defs.bzl", "rulec_gen", "rulec_library", "rulec_test")

See docs/build-integration.md. The rules live in bazel/private/; this file is the public
surface and only re-exports them.
"""

load("//bazel/private:gen.bzl", _rulec_gen = "rulec_gen")
load("//bazel/private:library.bzl", _rulec_library = "rulec_library")
load("//bazel/private:providers.bzl", _RulecInfo = "RulecInfo")
load("//bazel/private:test.bzl", _rulec_check_test = "rulec_check_test", _rulec_test = "rulec_test")
load("//bazel/private:toolchain.bzl", _rulec_toolchain = "rulec_toolchain")

RulecInfo = _RulecInfo
rulec_library = _rulec_library
rulec_gen = _rulec_gen
rulec_test = _rulec_test
rulec_check_test = _rulec_check_test
rulec_toolchain = _rulec_toolchain
