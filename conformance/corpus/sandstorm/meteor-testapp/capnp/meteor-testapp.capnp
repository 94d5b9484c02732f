# Sandstorm - Personal Cloud Sandbox
# Copyright (c) 2020 Sandstorm Development Group, Inc. and contributors
# All rights reserved.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#   http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

@0x95851df2c1773058;

$import "/capnp/c++.capnp".namespace("sandstorm");

using Grain = import "/sandstorm/grain.capnp";
using Bridge = import "/sandstorm/sandstorm-http-bridge.capnp";

interface PersistentCallback extends (Grain.ScheduledJob.Callback, Grain.AppPersistent(Text)) {}
# Joining interface so we can export an object that is both a Callback
# and AppPersistent (with Text as our ObjectId).

interface TestAppAppHooks extends (Bridge.AppHooks(Text)) {}
# Interface which specializes AppHooks's type parameter to Text, which is our
# ObjectId type.
